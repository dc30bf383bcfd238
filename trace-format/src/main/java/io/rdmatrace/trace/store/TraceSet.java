package io.rdmatrace.trace.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The host folders of one capture: {@code OUT/<host-a>/}, {@code OUT/<host-b>/} …, found by
 * {@link #discover(Path)}.
 *
 * @param root  the folder given to discover
 * @param hosts host folders, sorted by name
 */
public record TraceSet(Path root, List<Path> hosts) {

    public TraceSet {
        Objects.requireNonNull(root, "root");
        hosts = List.copyOf(hosts);
    }

    /**
     * Finds the host folders under {@code dir}: if {@code dir} itself holds a queue it is the only
     * host; otherwise every direct subfolder that holds one is a host (other files and folders
     * are ignored).
     *
     * @throws TraceException NOT_FOUND, NOT_A_DIRECTORY, NO_TRACES
     */
    public static TraceSet discover(Path dir) throws TraceException {
        Objects.requireNonNull(dir, "dir");
        if (!Files.exists(dir)) {
            throw new TraceException(TraceException.Problem.NOT_FOUND, dir, dir + ": no such folder");
        }
        if (!Files.isDirectory(dir)) {
            throw new TraceException(TraceException.Problem.NOT_A_DIRECTORY, dir, dir + ": is a file, not a trace folder");
        }
        if (TraceLayout.holdsQueueFiles(dir)) {
            return new TraceSet(dir, List.of(dir));
        }
        List<Path> hosts;
        try (Stream<Path> s = Files.list(dir)) {
            hosts = s.filter(TraceLayout::holdsQueueFiles).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new TraceException(TraceException.Problem.IO, dir, dir + ": cannot list folder: " + e, e);
        }
        if (hosts.isEmpty()) {
            throw new TraceException(TraceException.Problem.NO_TRACES, dir, dir
                    + ": no trace found (expected host folders holding *" + TraceLayout.QUEUE_FILE_SUFFIX
                    + " files, as written by 'rdmatrace capture --out " + dir + "')");
        }
        return new TraceSet(dir, hosts);
    }

    /** Host ids = folder names, in {@link #hosts()} order. */
    public List<String> hostIds() {
        return hosts.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }

    /** Opens the reader of one host folder of this set. */
    public TraceReader open(Path host) throws TraceException {
        return TraceReader.open(host);
    }
}
