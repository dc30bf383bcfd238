package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import io.rdmatrace.abi.IbvEnum;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The binding's enums take their values from the verbs ABI model by C name: every constant but the
 * binding's own "not a libibverbs value" constant (UNKNOWN, INVALID) is in the model's table, and every
 * value of the table has a constant, so neither side can gain or lose a value alone.
 */
class AbiEnumsTest {
    private static final Map<Class<? extends VerbsEnum>, IbvEnum> TABLES = Map.ofEntries(
            Map.entry(AccessFlag.class, IbvEnum.ACCESS_FLAGS), Map.entry(AtomicCap.class, IbvEnum.ATOMIC_CAP),
            Map.entry(EventType.class, IbvEnum.EVENT_TYPE), Map.entry(GidType.class, IbvEnum.GID_TYPE),
            Map.entry(LinkLayer.class, IbvEnum.LINK_LAYER), Map.entry(MigState.class, IbvEnum.MIG_STATE),
            Map.entry(Mtu.class, IbvEnum.MTU), Map.entry(NodeType.class, IbvEnum.NODE_TYPE),
            Map.entry(PortState.class, IbvEnum.PORT_STATE), Map.entry(QpState.class, IbvEnum.QP_STATE),
            Map.entry(QpType.class, IbvEnum.QP_TYPE), Map.entry(SendFlag.class, IbvEnum.SEND_FLAGS),
            Map.entry(WcFlag.class, IbvEnum.WC_FLAGS), Map.entry(WcOpcode.class, IbvEnum.WC_OPCODE),
            Map.entry(WcStatus.class, IbvEnum.WC_STATUS), Map.entry(WrOpcode.class, IbvEnum.WR_OPCODE));
    private static final List<String> NOT_LIBIBVERBS = List.of("UNKNOWN", "INVALID");

    @Test
    void everyConstantIsInItsTableWithItsValue_andEveryTableValueHasAConstant() {
        assertThat(TABLES).hasSize(IbvEnum.values().length);
        TABLES.forEach((type, table) -> {
            List<? extends VerbsEnum> constants = Arrays.asList(type.getEnumConstants());
            for (VerbsEnum c : constants) {
                int fromTable = table.value(c.ibvName(), Integer.MIN_VALUE);
                if (fromTable == Integer.MIN_VALUE) {
                    assertThat(((Enum<?>) c).name()).as(type.getSimpleName() + " " + c + " is not in " + table)
                            .isIn(NOT_LIBIBVERBS);
                } else {
                    assertThat(c.value()).as(type.getSimpleName() + " " + c).isEqualTo(fromTable);
                }
            }
            for (Map.Entry<Long, String> e : table.entries().entrySet()) {
                assertThat(constants).as(table + " " + e.getValue() + " has a " + type.getSimpleName())
                        .anyMatch(c -> c.ibvName().equals(e.getValue()) && c.value() == e.getKey());
            }
        });
    }
}
