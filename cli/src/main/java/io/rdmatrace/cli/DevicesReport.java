package io.rdmatrace.cli;

import java.util.ArrayList;
import java.util.List;

import io.rdmatrace.verbs.CallStatus;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.Device;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.DeviceList;
import io.rdmatrace.verbs.IbvGidEntry;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.PortAttr;
import io.rdmatrace.verbs.Verbs;

/**
 * What `rdmatrace devices` shows, read through the verbs API: per device its attributes, and per
 * port its attributes and non-zero GID table entries. A device that cannot be opened or queried
 * is kept with the reason, so one bad device does not hide the others.
 */
record DevicesReport(String requestedLibrary, String loadedLibrary, boolean softverbs, List<DeviceEntry> devices) {

    /** One device; {@code error} is null when every query worked. */
    record DeviceEntry(String name, long guid, String nodeType, String transportType, DeviceAttr attr,
                       List<PortEntry> ports, String error) {
    }

    record PortEntry(int portNum, PortAttr attr, List<IbvGidEntry> gids) {
    }

    boolean anyError() {
        return devices.stream().anyMatch(d -> d.error() != null);
    }

    static DevicesReport collect(Verbs verbs, DeviceList list) {
        List<DeviceEntry> entries = new ArrayList<>();
        for (Device device : list.devices()) {
            entries.add(collect(verbs, device));
        }
        return new DevicesReport(verbs.library().describe(), verbs.loadedPath(), verbs.isSoftverbs(), entries);
    }

    private static DeviceEntry collect(Verbs verbs, Device device) {
        Outcome<Context> opened = device.tryOpen(null);
        if (!(opened instanceof Outcome.Ok<Context> ok)) {
            return failed(verbs, device, opened.verb(), opened.status());
        }
        try (Context ctx = ok.value()) {
            Outcome<DeviceAttr> attr = ctx.tryQueryDevice();
            if (!(attr instanceof Outcome.Ok<DeviceAttr> deviceAttr)) {
                return failed(verbs, device, attr.verb(), attr.status());
            }
            List<PortEntry> ports = new ArrayList<>();
            for (int port = 1; port <= deviceAttr.value().physPortCnt(); port++) {
                Outcome<PortAttr> portAttr = ctx.tryQueryPort(port);
                if (!(portAttr instanceof Outcome.Ok<PortAttr> p)) {
                    return failed(verbs, device, portAttr.verb() + " of port " + port, portAttr.status());
                }
                ports.add(new PortEntry(port, p.value(), gids(ctx, port, p.value().gidTblLen())));
            }
            return new DeviceEntry(device.name(), device.guid(), device.nodeType().name(),
                    device.transportType().name(), deviceAttr.value(), ports, null);
        }
    }

    /** The non-zero GIDs (as ibv_devinfo -v lists them); empty or unreadable entries are skipped. */
    private static List<IbvGidEntry> gids(Context ctx, int port, int tableLength) {
        List<IbvGidEntry> gids = new ArrayList<>();
        for (int index = 0; index < tableLength; index++) {
            if (ctx.tryQueryGidEntry(port, index) instanceof Outcome.Ok<IbvGidEntry> entry && !entry.value().gid().isZero()) {
                gids.add(entry.value());
            }
        }
        return gids;
    }

    private static DeviceEntry failed(Verbs verbs, Device device, String verb, CallStatus status) {
        String why = verb + " failed: " + status.describe();
        String detail = verbs.lastSoftverbsError().orElse("");
        if (!detail.isEmpty()) {
            why += " (" + detail + ")";
        }
        return new DeviceEntry(device.name(), device.guid(), device.nodeType().name(), device.transportType().name(),
                null, List.of(), why);
    }
}
