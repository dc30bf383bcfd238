package io.rdmatrace.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks of the paths a verb was given, before it reads or computes anything, so every verb
 * answers the same unusable path with the same exit code (2, {@link EnvironmentException}).
 */
final class Inputs {

    private Inputs() {
    }

    /** Every --rules DIR must be a readable folder. */
    static void ruleFolders(List<Path> folders) {
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                throw new EnvironmentException("--rules " + folder + ": " + (Files.exists(folder)
                        ? "is a file; give a folder of *.sql rule files" : "no such folder"));
            }
            if (!Files.isReadable(folder)) {
                throw new EnvironmentException("--rules " + folder + ": cannot read the folder");
            }
        }
    }

    /** An output file must be writable: its folder exists and it is not a folder itself. */
    static void outputFile(Path output) {
        if (Files.isDirectory(output)) {
            throw new EnvironmentException(output + ": is a folder; give the file to write");
        }
        Path parent = output.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new EnvironmentException(output + ": its folder does not exist");
        }
        if (!Files.isWritable(parent)) {
            throw new EnvironmentException(output + ": its folder is not writable");
        }
    }
}
