package io.rdmatrace.capture.run;

import io.rdmatrace.capture.record.VerbAttrs;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.model.GidEntry;
import io.rdmatrace.trace.names.GidText;
import io.rdmatrace.verbs.Context;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.Gid;
import io.rdmatrace.verbs.GidType;
import io.rdmatrace.verbs.IbvGidEntry;
import io.rdmatrace.verbs.Outcome;
import io.rdmatrace.verbs.PortAttr;
import java.util.ArrayList;
import java.util.List;

/**
 * What the SESSION says about the device: identity and limits, the port, and the populated part of
 * the GID table (queried with the recorder listening, so those calls are in the trace too). Also picks
 * the default GID index: the RoCE v2 IPv4-mapped GID (index 3 on softverbs).
 */
final class DeviceSnapshot {
    /** GID indices queried at most, and how many empty ones in a row end the scan. */
    private static final int MAX_GIDS = 64;
    private static final int EMPTY_RUN = 4;

    final Attrs device;
    final PortAttr port;
    final Attrs portAttrs;
    final List<GidEntry> gids = new ArrayList<>();
    private final List<IbvGidEntry> entries = new ArrayList<>();

    DeviceSnapshot(Context ctx, int portNum) {
        DeviceAttr d = ctx.queryDevice();
        this.device = VerbAttrs.device(ctx.device().name(), d);
        this.port = ctx.queryPort(portNum);
        Attrs.Builder p = Attrs.builder();
        VerbAttrs.port(p, portNum, port);
        this.portAttrs = p.build();
        // ibv_query_gid reports an empty slot as the zero GID (no error, unlike ibv_query_gid_ex's
        // ENODATA); the type is asked only for populated slots, so the scan makes no failing call
        int limit = Math.min(Math.max(port.gidTblLen(), 0), MAX_GIDS);
        int emptyRun = 0;
        for (int i = 0; i < limit && emptyRun < EMPTY_RUN; i++) {
            Outcome<Gid> g = ctx.tryQueryGid(portNum, i);
            if (!(g instanceof Outcome.Ok<Gid> ok) || ok.value().isZero()) {
                emptyRun++;
                continue;
            }
            emptyRun = 0;
            Outcome<IbvGidEntry> typed = ctx.tryQueryGidEntry(portNum, i);
            IbvGidEntry e = typed instanceof Outcome.Ok<IbvGidEntry> t ? t.value()
                    : new IbvGidEntry(ok.value(), i, portNum, GidType.UNKNOWN, 0);
            entries.add(e);
            gids.add(new GidEntry(portNum, i, GidText.format(e.gid().raw()), Math.max(0, e.gidType().value())));
        }
    }

    /** The RoCE v2 IPv4-mapped GID if there is one, else the first RoCE v2, else the first GID, else 0. */
    int defaultGidIndex() {
        for (var e : entries) {
            if (e.gidType() == GidType.ROCE_V2 && e.gid().ipv4().isPresent()) {
                return e.gidIndex();
            }
        }
        for (var e : entries) {
            if (e.gidType() == GidType.ROCE_V2) {
                return e.gidIndex();
            }
        }
        return entries.isEmpty() ? 0 : entries.get(0).gidIndex();
    }

    /** The GID at {@code index} as the table says, or zero when it is not populated (a fault in itself). */
    Gid gid(int index) {
        for (var e : entries) {
            if (e.gidIndex() == index) {
                return e.gid();
            }
        }
        return Gid.ZERO;
    }
}
