package io.rdmatrace.cli;

import picocli.CommandLine.IVersionProvider;

/** `rdmatrace --version`: the version from the jar manifest (or "dev" when run from classes). */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"rdmatrace " + toolVersion(),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"};
    }

    static String toolVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
