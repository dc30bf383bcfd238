package io.rdmatrace.analyzer.load.bundle;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;

/**
 * Lets every command that loads traces take an export bundle wherever it takes a trace folder:
 * folders go to the analyzer's folder loader, bundles to {@link BundleLoader}. A bundle that
 * cannot be read becomes a root problem (like a folder without traces), not an exception.
 */
public final class BundleInputs {
    /** The analyzer's loader of trace folders ({@code TraceLoader::load}). */
    @FunctionalInterface
    public interface FolderLoader {
        LoadReport load(List<Path> folders) throws SQLException;
    }

    private BundleInputs() {
    }

    /**
     * Loads each input. Folders load first, so that a host id clash renames the bundle's host
     * (the folder loader does not know about rows inserted behind its back).
     */
    public static LoadReport load(Connection connection, FolderLoader folders, List<Path> inputs) throws SQLException {
        return load(() -> connection, folders, inputs, UnaryOperator.identity());
    }

    /** The database bundles load into, asked for only when there is a bundle (it may still be starting). */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection connection() throws SQLException;
    }

    /**
     * As {@link #load(Connection, FolderLoader, List)}; bundles' rows of each base table go to {@code insertTable}'s
     * table, which is asked for after {@code connection}.
     */
    public static LoadReport load(ConnectionSource connection, FolderLoader folders, List<Path> inputs,
            UnaryOperator<String> insertTable) throws SQLException {
        long start = System.nanoTime();
        List<Path> folderInputs = new ArrayList<>();
        List<Path> bundles = new ArrayList<>();
        for (Path input : inputs) {
            (BundleLayout.looksLikeBundle(input) ? bundles : folderInputs).add(input);
        }
        List<HostLoad> hosts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (!folderInputs.isEmpty()) {
            LoadReport report = folders.load(folderInputs);
            hosts.addAll(report.hosts());
            problems.addAll(report.rootProblems());
        }
        for (Path bundle : bundles) {
            try {
                hosts.addAll(BundleLoader.load(connection.connection(), bundle, insertTable));
            } catch (BundleException e) {
                problems.add(e.getMessage());
            }
        }
        return new LoadReport(hosts, problems, System.nanoTime() - start);
    }
}
