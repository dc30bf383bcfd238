package io.rdmatrace.abi.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmatrace.abi.QpField;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the build generates from the descriptors: the native modules' verbs_abi.h and trace-format's Attr constants. */
class AbiSourcesTest {

    @Test
    void cHeader_listsEverySlotInStructOrderWithItsMember() {
        String h = AbiSources.cHeader();
        assertThat(h).contains("#define QP_ATTR_SLOTS(X) X(QP_STATE) X(CUR_QP_STATE) X(PATH_MTU)")
                .contains("X(CAP_MAX_SEND_WR, cap.max_send_wr)").contains("X(RATE_LIMIT, rate_limit)")
                .contains("#define AH_ATTR_SLOTS(X) X(DGID_0) X(DGID_1) X(FLOW_LABEL)")
                .contains("#define AH_ATTR_GIDS(X) X(DGID_0, grh.dgid)").contains("X(SL, sl)")
                .contains("X(IBV_MTU_256, 256)").contains("X(IBV_MTU_4096, 4096)");
        for (QpField f : QpField.all()) {
            if (f.block() == QpField.Block.QP_ATTR) {
                assertThat(h).as(f.toString()).contains("X(" + f.slot() + ", " + f.cName() + ")");
            }
        }
    }

    @Test
    void javaAttr_putsTheDeclaredAttributesInPlaceOfTheMarker() {
        String out = AbiSources.javaAttr("enum Attr {\n    A(1, U32, \"a\"),\n    " + AbiSources.ATTR_MARKER
                + " here\n    Z(300, U32, \"z\");\n}\n");
        assertThat(out).doesNotContain(AbiSources.ATTR_MARKER)
                .contains("    PATH_MTU(133, ENUM, VerbsNames.MTU, \"path_mtu (also the MTU exchanged out of band)\"),\n")
                .contains("    RQ_PSN(136, PSN24, \"rq_psn: first PSN expected from the peer\"),\n")
                .contains("    DEST_QP_NUM(138, QPN24, \"dest_qp_num\"),\n")
                .contains("    RATE_LIMIT(151, U32, \"rate_limit (kbps)\"),\n")
                .contains("    DGID(158, TEXT, \"ah_attr.grh.dgid as IPv6 text\"),\n");
        assertThat(out.indexOf("A(1,")).isLessThan(out.indexOf("QP_STATE(131,"));
        assertThat(out.indexOf("TRAFFIC_CLASS(162,")).isLessThan(out.indexOf("Z(300,"));
        assertThatThrownBy(() -> AbiSources.javaAttr("enum Attr { }")).hasMessageContaining(AbiSources.ATTR_MARKER);
    }

    @Test
    void traceCodesAreUniqueAndOnlyWhereTheAttributeIsDeclared() {
        Set<Integer> codes = new HashSet<>();
        for (QpField f : QpField.all()) {
            if (f.trace().declaresAttr()) {
                assertThat(codes.add(f.trace().code())).as("code of %s", f).isTrue();
            } else if (f.traceAttr() != null) {
                assertThat(f.trace().description()).as("%s shares its attribute", f).isNull();
            }
        }
        assertThat(codes).contains(133, 151).hasSize(32);
    }
}
