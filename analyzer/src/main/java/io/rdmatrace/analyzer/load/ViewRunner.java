package io.rdmatrace.analyzer.load;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.duckdb.DuckDBConnection;

/**
 * Runs the view statements ({@link ViewStatements}) on up to {@code workers} connections to one
 * database, each statement once every statement it needs is done; the first failure (in file
 * order) stops the rest and is thrown, naming its script.
 */
final class ViewRunner {
    private final List<ViewStatements.Statement> statements;
    /** Per statement: 0 waiting, 1 running, 2 done. Guarded by {@code this}. */
    private final int[] state;
    private SQLException failure;
    private int failedAt = Integer.MAX_VALUE;

    private ViewRunner(List<ViewStatements.Statement> statements) {
        this.statements = statements;
        this.state = new int[statements.size()];
    }

    static void run(Connection connection, List<ViewStatements.Statement> statements, int workers, String folder)
            throws SQLException {
        ViewRunner runner = new ViewRunner(statements);
        if (workers <= 1 || !(connection instanceof DuckDBConnection duckdb)) {
            runner.work(connection, folder);
        } else {
            List<Thread> threads = new ArrayList<>();
            List<RuntimeException> crashes = new ArrayList<>();
            for (int w = 1; w < workers; w++) {
                Thread thread = new Thread(() -> {
                    try (Connection own = duckdb.duplicate()) {
                        runner.work(own, folder);
                    } catch (SQLException e) {
                        // no connection of its own (or closing it failed): the other workers run its share
                    } catch (RuntimeException e) {
                        synchronized (crashes) {
                            crashes.add(e);
                        }
                        runner.fail(-1, new SQLException(e));
                    }
                }, "rdmatrace-views");
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            try {
                runner.work(connection, folder);
            } catch (RuntimeException e) {
                // the workers may be waiting for the statement this thread was running: stop them first
                runner.fail(-1, new SQLException(e));
                throw e;
            } finally {
                for (Thread thread : threads) {
                    join(thread);
                }
            }
            if (!crashes.isEmpty()) {
                throw crashes.get(0);
            }
        }
        if (runner.failure != null) {
            throw runner.failure;
        }
    }

    /** Runs ready statements on {@code connection} until every statement is done or one failed. */
    private void work(Connection connection, String folder) {
        while (true) {
            int next = take();
            if (next < 0) {
                return;
            }
            ViewStatements.Statement s = statements.get(next);
            // DuckDB closes a Statement after an error, so every statement gets its own
            try (Statement statement = connection.createStatement()) {
                statement.execute(s.sql());
                done(next);
            } catch (SQLException e) {
                fail(next, new SQLException(folder + "/" + s.file() + ": " + e.getMessage(), e));
                return;
            }
        }
    }

    /** The first waiting statement whose needs are done (waits for one); -1 when none is left or one failed. */
    private synchronized int take() {
        while (true) {
            if (failure != null) {
                return -1;
            }
            boolean waiting = false;
            for (int i = 0; i < state.length; i++) {
                if (state[i] == 0) {
                    waiting = true;
                    if (ready(i)) {
                        state[i] = 1;
                        return i;
                    }
                }
            }
            if (!waiting) {
                return -1;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail(-1, new SQLException("interrupted while computing the views", e));
                return -1;
            }
        }
    }

    private boolean ready(int i) {
        for (int need : statements.get(i).needs()) {
            if (state[need] != 2) {
                return false;
            }
        }
        return true;
    }

    private synchronized void done(int i) {
        state[i] = 2;
        notifyAll();
    }

    /** Keeps the failure of the earliest statement (a lost connection counts as after them all). */
    private synchronized void fail(int at, SQLException e) {
        int order = at < 0 ? Integer.MAX_VALUE - 1 : at;
        if (failure == null || order < failedAt) {
            failure = e;
            failedAt = order;
        }
        notifyAll();
    }

    private static void join(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the worker stops after its statement; its connection must be closed first
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
