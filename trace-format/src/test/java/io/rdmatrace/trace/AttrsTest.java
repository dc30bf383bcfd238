package io.rdmatrace.trace;

import io.rdmatrace.trace.model.Attr;
import io.rdmatrace.trace.model.Attrs;
import io.rdmatrace.trace.names.ErrnoNames;
import io.rdmatrace.trace.model.Verb;
import io.rdmatrace.trace.names.VerbsNames;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AttrsTest {

    @Test
    void build_sortsByCodeAndEqualityIgnoresInsertionOrder() {
        Attrs a = Attrs.builder().put(Attr.SQ_PSN, 5).put(Attr.QP_STATE, 3).put(Attr.GID, "::1").build();
        Attrs b = Attrs.builder().put(Attr.GID, "::1").put(Attr.QP_STATE, 3).put(Attr.SQ_PSN, 5).build();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.size()).isEqualTo(2);
        assertThat(a.attr(0)).isEqualTo(Attr.QP_STATE);
        assertThat(a.attr(1)).isEqualTo(Attr.SQ_PSN);
        assertThat(a.textSize()).isEqualTo(1);
        assertThat(a.text(Attr.GID)).isEqualTo("::1");
    }

    @Test
    void get_absentIsNotZero() {
        Attrs a = Attrs.builder().put(Attr.RQ_PSN, 0).build();
        assertThat(a.getOrNull(Attr.RQ_PSN)).isEqualTo(0L);
        assertThat(a.getOrNull(Attr.SQ_PSN)).isNull();
        assertThat(a.get(Attr.SQ_PSN, -7)).isEqualTo(-7);
        assertThat(a.has(Attr.RQ_PSN)).isTrue();
        assertThat(a.has(Attr.SQ_PSN)).isFalse();
        assertThat(a.text(Attr.FW_VER)).isNull();
    }

    @Test
    void put_sameAttrTwice_keepsLast() {
        Attrs a = Attrs.builder().put(Attr.QP_STATE, 1).put(Attr.QP_STATE, 2)
                .put(Attr.GID, "a").put(Attr.GID, "b").build();
        assertThat(a.size()).isEqualTo(1);
        assertThat(a.get(Attr.QP_STATE, -1)).isEqualTo(2);
        assertThat(a.text(Attr.GID)).isEqualTo("b");
    }

    @Test
    void put_nullText_removes() {
        Attrs a = Attrs.builder().put(Attr.GID, "a").put(Attr.FW_VER, "1").put(Attr.GID, (String) null).build();
        assertThat(a.textSize()).isEqualTo(1);
        assertThat(a.text(Attr.GID)).isNull();
    }

    @Test
    void put_wrongKind_refused() {
        assertThatThrownBy(() -> Attrs.builder().put(Attr.GID, 1L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GID");
        assertThatThrownBy(() -> Attrs.builder().put(Attr.QP_STATE, "RTS"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Attrs.builder().put(Attr.QP_STATE, true)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Attrs.EMPTY.get(Attr.DGID, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void builder_growsBeyondInitialCapacity_andClears() {
        Attrs.Builder b = Attrs.builder();
        Attr[] all = Attr.values();
        int n = 0;
        for (Attr a : all) {
            if (!a.isText()) {
                b.put(a, a.code());
                n++;
            }
        }
        Attrs big = b.build();
        assertThat(big.size()).isEqualTo(n);
        for (int i = 0; i < big.size(); i++) {
            assertThat(big.value(i)).isEqualTo(big.attr(i).code());
            if (i > 0) {
                assertThat(big.attr(i).code()).isGreaterThan(big.attr(i - 1).code());
            }
        }
        assertThat(b.clear().build()).isSameAs(Attrs.EMPTY);
    }

    @Test
    void render_usesKindAndNames() {
        assertThat(Attr.QP_STATE.render(3)).isEqualTo("IBV_QPS_RTS");
        assertThat(Attr.QP_STATE.render(42)).isEqualTo("UNKNOWN(42)");
        assertThat(Attr.PATH_MTU.render(5)).isEqualTo("IBV_MTU_4096");
        assertThat(Attr.ACCESS.render(0x7)).isEqualTo(
                "IBV_ACCESS_LOCAL_WRITE|IBV_ACCESS_REMOTE_WRITE|IBV_ACCESS_REMOTE_READ");
        assertThat(Attr.ACCESS.render(0x1 | 0x400000)).isEqualTo("IBV_ACCESS_LOCAL_WRITE|0x400000");
        assertThat(Attr.ATTR_MASK.render(0x39)).isEqualTo(
                "IBV_QP_STATE|IBV_QP_ACCESS_FLAGS|IBV_QP_PKEY_INDEX|IBV_QP_PORT");
        assertThat(Attr.ACCESS.render(0)).isEqualTo("0");
        assertThat(Attr.ADDR.render(0x8000000000000000L)).isEqualTo("0x8000000000000000");
        assertThat(Attr.LENGTH.render(-1L)).isEqualTo("18446744073709551615");
        assertThat(Attr.SQ_PSN.render(0xFFFFFF)).isEqualTo("0xffffff");
        assertThat(Attr.QP_NUM.render(0x11)).isEqualTo("0x000011");
        assertThat(Attr.NODE_GUID.render(0x0002c90300105e7aL)).isEqualTo("0002:c903:0010:5e7a");
        assertThat(Attr.IS_GLOBAL.render(1)).isEqualTo("true");
        assertThat(Attr.WC_STATUS.render(12)).isEqualTo("IBV_WC_RETRY_EXC_ERR");
        assertThat(Attr.NODE_TYPE.render(-1)).isEqualTo("IBV_NODE_UNKNOWN");
    }

    @Test
    void attr_codesAndColumnsUnique_andLookupRoundTrips() {
        Set<Integer> codes = new HashSet<>();
        Set<String> cols = new HashSet<>();
        for (Attr a : Attr.values()) {
            assertThat(codes.add(a.code())).as("code %d of %s", a.code(), a).isTrue();
            assertThat(cols.add(a.column())).isTrue();
            assertThat(Attr.byCode(a.code())).isSameAs(a);
            assertThat(a.column()).matches("[a-z][a-z0-9_]*");
        }
        assertThat(Attr.byCode(0)).isNull();
        assertThat(Attr.byCode(65000)).isNull();
    }

    @Test
    void verb_codesRoundTrip_andFunctionNames() {
        for (Verb v : Verb.values()) {
            assertThat(Verb.byCode(v.code())).isSameAs(v);
            assertThat(Verb.byFunction(v.function())).isSameAs(v);
        }
        assertThat(Verb.IBV_MODIFY_QP.function()).isEqualTo("ibv_modify_qp");
    }

    @Test
    void errnoNames_matchLinux() {
        assertThat(ErrnoNames.name(0)).isEqualTo("0");
        assertThat(ErrnoNames.name(1)).isEqualTo("EPERM");
        assertThat(ErrnoNames.name(12)).isEqualTo("ENOMEM");
        assertThat(ErrnoNames.name(22)).isEqualTo("EINVAL");
        assertThat(ErrnoNames.name(40)).isEqualTo("ELOOP");
        assertThat(ErrnoNames.name(61)).isEqualTo("ENODATA");
        assertThat(ErrnoNames.name(95)).isEqualTo("EOPNOTSUPP");
        assertThat(ErrnoNames.name(110)).isEqualTo("ETIMEDOUT");
        assertThat(ErrnoNames.name(125)).isEqualTo("ECANCELED");
        assertThat(ErrnoNames.name(133)).isEqualTo("EHWPOISON");
        assertThat(ErrnoNames.name(9999)).isEqualTo("errno 9999");
        assertThat(ErrnoNames.name(-3)).isEqualTo("errno -3");
    }

    @Test
    void mtuBytes() {
        assertThat(io.rdmatrace.abi.IbvEnum.mtuBytes(1)).isEqualTo(256);
        assertThat(io.rdmatrace.abi.IbvEnum.mtuBytes(5)).isEqualTo(4096);
        assertThat(io.rdmatrace.abi.IbvEnum.mtuBytes(0)).isEqualTo(-1);
    }
}
