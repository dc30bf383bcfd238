package io.rdmatrace.analyzer;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.FutureTask;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

import io.rdmatrace.trace.store.TraceLayout;

/**
 * An analysis's fixed start-up costs, begun before its command line is parsed: an in-memory database's start
 * (DuckDB's driver with its JFR set-up, the native library, the base tables) on one thread, and the class
 * initializers of Chronicle's core (jnr-ffi, JNA) and of Arrow's allocator and schema (Jackson) on another. In a
 * fresh JVM they take ~0.5 s of CPU; picocli keeps one core busy for ~0.3 s while it parses, and these run on
 * the other.
 * <p>
 * A command calls {@link #await()} before it uses Chronicle or Arrow itself, so their initializers never run on
 * two threads at once (class initializers that need each other can deadlock then), and takes the database with
 * {@link #inMemoryDatabase()}. Nothing here touches a file.
 */
public final class AnalysisWarmUp {
    private final Thread libraries;
    private volatile Throwable librariesFailure;
    /** The database begun early, until a command takes it or discards it. */
    private FutureTask<AnalysisDatabase.Started> database;

    private AnalysisWarmUp(Thread libraries, FutureTask<AnalysisDatabase.Started> database) {
        this.libraries = libraries;
        this.database = database;
    }

    /** Begins the database's start and the libraries' initialization. */
    public static AnalysisWarmUp start() {
        AnalysisWarmUp warmUp = new AnalysisWarmUp(new Thread(AnalysisWarmUp::initializeTraceLibraries,
                "rdmatrace-warm-up"), AnalysisDatabase.beginInMemoryStart());
        warmUp.libraries.setUncaughtExceptionHandler((thread, failure) -> warmUp.librariesFailure = failure);
        warmUp.libraries.setDaemon(true);
        warmUp.libraries.start();
        return warmUp;
    }

    /** No warm-up: {@link #await()} returns at once and {@link #inMemoryDatabase()} starts a database then. */
    public static AnalysisWarmUp none() {
        return new AnalysisWarmUp(null, null);
    }

    /**
     * Waits until Chronicle's and Arrow's classes are initialized. A library that could not be initialized (an
     * {@link Error}, such as a native library that does not load) is thrown here, since its classes cannot be
     * used afterwards; an exception is not, the command meets it again where it can say what it means.
     */
    public void await() {
        if (libraries == null) {
            return;
        }
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    libraries.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // short, and the command cannot go on before it
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (librariesFailure instanceof Error error) {
            throw new IllegalStateException("a library did not initialize: " + error, error);
        }
    }

    /** The in-memory database begun early, the first time; a new one after that (or without a warm-up). */
    public synchronized AnalysisDatabase inMemoryDatabase() {
        if (database == null) {
            return AnalysisDatabase.inMemory();
        }
        AnalysisDatabase taken = AnalysisDatabase.inMemory(database);
        database = null;
        return taken;
    }

    /** Whether the database begun early is still here to be taken. */
    synchronized boolean holdsDatabase() {
        return database != null;
    }

    /** Closes the database begun early if no command took it (one that keeps its database in a file). */
    public synchronized void discardDatabase() throws SQLException {
        if (database != null) {
            AnalysisDatabase.inMemory(database).close();
            database = null;
        }
    }

    private static void initializeTraceLibraries() {
        TraceLayout.initializeChronicle();
        new RootAllocator().close();
        new Schema(List.of());
    }
}
