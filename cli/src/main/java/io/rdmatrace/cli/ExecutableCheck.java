package io.rdmatrace.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;

/**
 * Why a command cannot be recorded through {@code LD_LIBRARY_PATH}, read from its executable before
 * it runs: not found, a 32-bit program (the tracer is x86-64), a static binary (no dynamic loader),
 * a setuid/setgid program (the loader ignores LD_LIBRARY_PATH for it). Scripts pass: what they run
 * is checked by nobody, and is recorded if it loads libibverbs.
 */
final class ExecutableCheck {
    private ExecutableCheck() {
    }

    /** The file {@code command} names: itself if it has a slash, else the first match on {@code path}. */
    static Optional<Path> resolve(String command, String path) {
        if (command.contains("/")) {
            Path p = Path.of(command);
            return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
        }
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Empty when the executable can be recorded, else the sentence saying why not. */
    static Optional<String> problem(Path exe) throws IOException {
        PosixFileAttributes attrs = Files.readAttributes(exe, PosixFileAttributes.class);
        var perms = attrs.permissions();
        if (Files.getAttribute(exe, "unix:mode") instanceof Integer mode && (mode & 06000) != 0) {
            return Optional.of(exe + " is setuid/setgid: the dynamic loader ignores LD_LIBRARY_PATH for it, "
                    + "so its verbs calls cannot be recorded");
        }
        if (!perms.contains(PosixFilePermission.OWNER_EXECUTE) && !perms.contains(PosixFilePermission.GROUP_EXECUTE)
                && !perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
            return Optional.of(exe + " is not executable");
        }
        byte[] head = new byte[64];
        int n;
        try (InputStream in = Files.newInputStream(exe)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (n < 4 || head[0] != 0x7f || head[1] != 'E' || head[2] != 'L' || head[3] != 'F') {
            return Optional.empty(); // a script: its interpreter and what it runs are recorded if they load verbs
        }
        if (head[4] == 1) {
            return Optional.of(exe + " is a 32-bit program; the tracing libibverbs is x86-64 only");
        }
        if (!hasInterpreter(exe)) {
            return Optional.of(exe + " is statically linked: it loads no libibverbs.so.1 that could be put in front of");
        }
        return Optional.empty();
    }

    /** True when a 64-bit ELF file has a PT_INTERP program header (is dynamically linked). */
    private static boolean hasInterpreter(Path exe) throws IOException {
        byte[] all;
        try (InputStream in = Files.newInputStream(exe)) {
            all = in.readNBytes(1 << 20);
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(all[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        if (all.length < 64) {
            return false;
        }
        long phoff = b.getLong(32);
        int phentsize = Short.toUnsignedInt(b.getShort(54));
        int phnum = Short.toUnsignedInt(b.getShort(56));
        for (int i = 0; i < phnum; i++) {
            long off = phoff + (long) i * phentsize;
            if (off + 4 > all.length) {
                return true;   // headers beyond what was read: assume dynamic rather than refuse
            }
            if (b.getInt((int) off) == 3) { // PT_INTERP
                return true;
            }
        }
        return false;
    }
}
