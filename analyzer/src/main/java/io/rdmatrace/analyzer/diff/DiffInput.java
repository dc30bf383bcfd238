package io.rdmatrace.analyzer.diff;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import io.rdmatrace.analyzer.Analysis;
import io.rdmatrace.analyzer.load.HostLoad;
import io.rdmatrace.analyzer.load.LoadReport;

/** Loads one side of a diff (a trace folder or an export bundle) and reads its hosts back. */
public final class DiffInput {
    private DiffInput() {
    }

    /** The input cannot be compared: nothing in it could be loaded. */
    public static final class UnusableInputException extends Exception {
        private static final long serialVersionUID = 1L;

        public UnusableInputException(String message) {
            super(message);
        }
    }

    /**
     * @throws UnusableInputException when no host of the input could be read (the message says why)
     */
    public static List<HostEvents> read(Path input) throws SQLException, UnusableInputException {
        try (Analysis analysis = Analysis.open(List.of(input))) {
            LoadReport load = analysis.load();
            if (!load.anyReadable()) {
                StringBuilder why = new StringBuilder();
                load.rootProblems().forEach(p -> why.append(why.length() > 0 ? "; " : "").append(p));
                for (HostLoad h : load.hosts()) {
                    why.append(why.length() > 0 ? "; " : "").append(h.detail());
                }
                throw new UnusableInputException(why.length() > 0 ? why.toString() : input + ": no trace in it");
            }
            return HostEventsQuery.read(analysis.connection());
        }
    }
}
