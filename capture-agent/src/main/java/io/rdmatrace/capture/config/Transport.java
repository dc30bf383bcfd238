package io.rdmatrace.capture.config;

import java.util.Locale;

/** The QP transport types the agent brings up; values are enum ibv_qp_type. */
public enum Transport {
    RC(2), UC(3), UD(4);

    /** Q_Key both ends use on UD (the value ibv_ud_pingpong uses). */
    public static final int UD_QKEY = 0x11111111;

    private final int ibvValue;

    Transport(int ibvValue) {
        this.ibvValue = ibvValue;
    }

    public int ibvValue() {
        return ibvValue;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean supports(Op op) {
        return switch (this) {
            case RC -> true;
            case UC -> op != Op.READ;
            case UD -> op == Op.SEND;
        };
    }
}
