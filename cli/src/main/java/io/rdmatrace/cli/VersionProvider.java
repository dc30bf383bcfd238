package io.rdmatrace.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import picocli.CommandLine.IVersionProvider;

/**
 * `rdmatrace --version`: the tool's version (jar manifest, or "dev" when run from classes), the
 * commit it was built from and the versions of the libraries bundled in the jar (build.properties,
 * filled by the build).
 */
final class VersionProvider implements IVersionProvider {
    private static final String BUILD_INFO = "build.properties";
    private static final String LIB_PREFIX = "lib.";

    @Override
    public String[] getVersion() {
        Properties build = buildInfo();
        List<String> lines = new ArrayList<>();
        lines.add("rdmatrace " + toolVersion() + " (commit " + build.getProperty("commit", "unknown") + ")");
        lines.add("Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")");
        List<String> libs = new ArrayList<>();
        for (String key : new TreeSet<>(build.stringPropertyNames())) {
            if (key.startsWith(LIB_PREFIX)) {
                libs.add(key.substring(LIB_PREFIX.length()) + " " + build.getProperty(key));
            }
        }
        lines.add("bundled: " + String.join(", ", libs));
        lines.add("native: " + build.getProperty("native", "unknown"));
        return lines.toArray(String[]::new);
    }

    static String toolVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }

    private static Properties buildInfo() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream(BUILD_INFO)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + BUILD_INFO + " from the jar", e);
        }
        return p;
    }
}
