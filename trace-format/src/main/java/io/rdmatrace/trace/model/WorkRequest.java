package io.rdmatrace.trace.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One work request of a posted chain (ibv_post_send, ibv_post_recv, ibv_post_srq_recv), as it
 * was passed: its fields and every scatter/gather element.
 *
 * <p>{@code fields} uses the attribute dictionary: {@link Attr#WR_ID}, and for send requests
 * {@link Attr#WR_OPCODE}, {@link Attr#SEND_FLAGS}, {@link Attr#REMOTE_ADDR}/{@link Attr#RKEY}
 * (RDMA and atomics), {@link Attr#IMM_DATA} (immediate data, or the invalidated rkey),
 * {@link Attr#COMPARE_ADD}/{@link Attr#SWAP} (atomics), {@link Attr#AH}/{@link Attr#REMOTE_QPN}/
 * {@link Attr#REMOTE_QKEY} (UD). A field that does not apply is absent. The SGE count is
 * {@code sges.size()}.
 */
public record WorkRequest(Attrs fields, List<Sge> sges) {

    /** One scatter/gather element: address, length in bytes, local key (all unsigned). */
    public record Sge(long addr, long length, long lkey) {
    }

    public WorkRequest {
        Objects.requireNonNull(fields, "fields");
        sges = List.copyOf(sges);
    }

    /** True for the verbs whose CALL can carry a chain. */
    public static boolean isPost(Verb verb) {
        return verb == Verb.IBV_POST_SEND || verb == Verb.IBV_POST_RECV || verb == Verb.IBV_POST_SRQ_RECV;
    }

    /** The attributes a post's {@code in} set copies from its first request (besides ADDR/LENGTH/LKEY of the first SGE). */
    static final Attr[] FIRST_WR_FIELDS = {Attr.AH, Attr.RKEY, Attr.WR_ID, Attr.WR_OPCODE, Attr.SEND_FLAGS,
        Attr.REMOTE_ADDR, Attr.IMM_DATA, Attr.REMOTE_QPN, Attr.REMOTE_QKEY, Attr.COMPARE_ADD, Attr.SWAP};

    /**
     * The single request a post's {@code in} attributes describe when its CALL carries no chain:
     * the WR fields present in {@code in}, and one SGE (ADDR, LENGTH, LKEY) when NUM_SGE ≥ 1.
     */
    public static WorkRequest fromPostInputs(Attrs in) {
        Attrs.Builder b = Attrs.builder();
        for (Attr a : FIRST_WR_FIELDS) {
            Long v = in.getOrNull(a);
            if (v != null) {
                b.put(a, v);
            }
        }
        List<Sge> sges = new ArrayList<>(1);
        if (in.get(Attr.NUM_SGE, 0) >= 1 && in.has(Attr.ADDR)) {
            sges.add(new Sge(in.get(Attr.ADDR, 0), in.get(Attr.LENGTH, 0), in.get(Attr.LKEY, 0)));
        }
        return new WorkRequest(b.build(), sges);
    }

    /** Sum of the SGE lengths (the bytes the request moves, unless inline). */
    public long totalLength() {
        long n = 0;
        for (Sge s : sges) {
            n += s.length();
        }
        return n;
    }
}
