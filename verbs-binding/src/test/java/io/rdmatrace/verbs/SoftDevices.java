package io.rdmatrace.verbs;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The bundled softverbs with two devices on loopback addresses private to this test JVM, so
 * other test processes (other modules, other runs) that bind 127.0.0.x:4791 do not collide.
 * Use one per test class: {@code try (SoftDevices soft = SoftDevices.open()) {...}}.
 */
final class SoftDevices implements AutoCloseable {
    final Verbs verbs;
    final DeviceList list;
    final String nameA;
    final String nameB;
    final String ipA;
    final String ipB;

    private SoftDevices(Verbs verbs, String prefix) {
        this.verbs = verbs;
        long pid = ProcessHandle.current().pid();
        String net = "127." + (100 + (int) (pid % 100)) + "." + (int) ((pid / 100) % 250 + 1);
        this.ipA = net + ".1";
        this.ipB = net + ".2";
        this.nameA = prefix + "a";
        this.nameB = prefix + "b";
        verbs.configureSoftverbs(nameA + "@" + ipA + "," + nameB + "@" + ipB);
        this.list = verbs.getDeviceList();
    }

    static SoftDevices open() {
        return open("jt");
    }

    static SoftDevices open(String prefix) {
        assumeThat(SoftDevices.class.getResource("/" + NativeResources.SOFTVERBS_LIBRARY))
                .as("softverbs is not built (make -C softverbs softverbs); the verbs tests run against it")
                .isNotNull();
        Verbs verbs = Verbs.open(VerbsLibrary.bundledSoftverbs());
        return new SoftDevices(verbs, prefix);
    }

    Device a() {
        return list.byName(nameA);
    }

    Device b() {
        return list.byName(nameB);
    }

    @Override
    public void close() {
        list.close();
        verbs.configureSoftverbs(null);
        verbs.close();
    }
}
