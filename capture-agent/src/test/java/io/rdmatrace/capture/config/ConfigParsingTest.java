package io.rdmatrace.capture.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.rdmatrace.trace.names.VerbsNames;
import org.junit.jupiter.api.Test;

/** The small parsers behind the override options. */
class ConfigParsingTest {

    @Test
    void symbols_acceptShortLongAndNumericNames() {
        assertThat(Symbols.parseEnum(VerbsNames.QP_STATE, "rts")).isEqualTo(3);
        assertThat(Symbols.parseEnum(VerbsNames.QP_STATE, "IBV_QPS_RESET")).isZero();
        assertThat(Symbols.parseEnum(VerbsNames.QP_STATE, "6")).isEqualTo(6);
        assertThat(Symbols.parseEnum(VerbsNames.WC_STATUS, "retry_exc_err")).isEqualTo(12);
        assertThat(Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "local-write,remote-read")).isEqualTo(0x5);
        assertThat(Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "IBV_ACCESS_REMOTE_WRITE|LOCAL_WRITE")).isEqualTo(0x3);
        assertThat(Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "none")).isZero();
        assertThat(Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "0x7")).isEqualTo(7);
    }

    @Test
    void symbols_unknownNameListsTheKnownOnes() {
        IllegalArgumentException e = catchThrowableOfType(IllegalArgumentException.class,
                () -> Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "local-write,remote-wrte"));
        assertThat(e).hasMessageContaining("remote-wrte").hasMessageContaining("IBV_ACCESS_REMOTE_WRITE");
        // "WRITE" alone is not a suffix match for IBV_ACCESS_LOCAL_WRITE: only whole names after the family prefix count
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, "write")))
                .isNotNull();
    }

    @Test
    void psnChoice_truthAbsoluteAndOffsetWithWrap() {
        assertThat(PsnChoice.TRUTH.advertised(0x123456)).isEqualTo(0x123456);
        assertThat(PsnChoice.parse("0x10").advertised(5)).isEqualTo(0x10);
        assertThat(PsnChoice.parse("-1").advertised(0)).isEqualTo(0xFFFFFF);
        assertThat(PsnChoice.parse("+1").advertised(0xFFFFFF)).isZero();
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> PsnChoice.parse("16777216"))).hasMessageContaining("24-bit");
    }

    @Test
    void mtu_bytesOrEnumAndNegotiation() {
        assertThat(PathMtu.parse("4096")).isEqualTo(5);
        assertThat(PathMtu.parse("256")).isEqualTo(1);
        assertThat(PathMtu.parse("IBV_MTU_1024")).isEqualTo(3);
        assertThat(PathMtu.parse("3")).isEqualTo(3);
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> PathMtu.parse("1500"))).hasMessageContaining("256, 512");
        assertThat(PathMtu.negotiate(3, 5, null)).isEqualTo(3);
        assertThat(PathMtu.negotiate(5, 3, 5)).isEqualTo(5);
    }

    @Test
    void workload_refusesOpsTheQpTypeCannotDo() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new Workload(Transport.UD, 1, 64, 1, Op.WRITE)))
                .hasMessageContaining("--op write").hasMessageContaining("UD");
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new Workload(Transport.UC, 1, 64, 1, Op.READ)))
                .hasMessageContaining("UC");
    }

    @Test
    void knobs_defaultsFollowTheWorkload() {
        QpKnobs k = QpKnobs.defaults();
        assertThat(k.rqDepthFor(1)).isEqualTo(16);
        assertThat(k.rqDepthFor(100)).isEqualTo(100);
        assertThat(k.cqDepthFor(100)).isEqualTo(116);
        assertThat(k.qpAccessFor(Op.WRITE)).isEqualTo(0x3);
        assertThat(k.qpAccessFor(Op.READ)).isEqualTo(0x5);
        assertThat(catchThrowableOfType(IllegalArgumentException.class, () -> new QpKnobs(null, null, PsnChoice.TRUTH, null, 0, null,
                true, 7, null, 32, 7, 7, 12, null, 16, null, PostRecvTiming.BEFORE_RTR, 0, java.util.List.of())))
                .hasMessageContaining("--timeout");
    }
}
