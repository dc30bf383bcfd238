package io.rdmatrace.capture.scenario;

import io.rdmatrace.abi.QpField;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.PostRecvTiming;
import io.rdmatrace.capture.config.PsnChoice;
import io.rdmatrace.capture.config.QpKnobs;
import io.rdmatrace.capture.config.Transport;
import io.rdmatrace.capture.config.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in bring-up is expressible as scenario data, and scenario files are read strictly. */
class ScenarioJsonTest {

    @Test
    void builtIn_isTheShippedJson() throws IOException {
        try (InputStream in = ScenarioJson.class.getResourceAsStream("bringup.json")) {
            assertThat(in).as("bringup.json resource").isNotNull();
            String shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ScenarioJson.parse(shipped)).isEqualTo(BringUpScenario.build(TestConfigs.defaults()));
        }
    }

    @Test
    void everyVariant_roundTripsThroughJson() {
        for (Transport type : Transport.values()) {
            for (Op op : Op.values()) {
                if (!type.supports(op)) {
                    continue;
                }
                for (PostRecvTiming t : PostRecvTiming.values()) {
                    QpKnobs k = new QpKnobs(null, null, PsnChoice.TRUTH, null, 0, null, t != PostRecvTiming.NEVER, 7, null,
                            14, 7, 7, 12, null, 16, null, t, 5, List.of("min_rnr_timer=3", "path_mtu"));
                    ScenarioSpec spec = BringUpScenario.build(TestConfigs.with(new Workload(type, 2, 64, 3, op), k, t == PostRecvTiming.AFTER_RTS));
                    assertThat(ScenarioJson.parse(ScenarioJson.write(spec))).as(type + " " + op + " " + t).isEqualTo(spec);
                }
            }
        }
    }

    @Test
    void overrides_changeTheSteps() {
        QpKnobs k = new QpKnobs(null, null, PsnChoice.TRUTH, null, 0, null, false, 7, null, 14, 7, 7, 12, null, 16, null,
                PostRecvTiming.NEVER, 250, List.of("min_rnr_timer=3"));
        ScenarioSpec spec = BringUpScenario.build(TestConfigs.with(Workload.defaults(), k, false));
        TestCase tc03 = spec.testCases().get(2);
        List<String> ops = tc03.steps().stream().map(s -> s.action().op()).toList();
        // no post_recv (never), a sleep (delay-rtr), an extra modify (modify-in-rts), no barrier
        assertThat(ops).containsExactly("modify_qp", "exchange", "sleep", "modify_qp", "modify_qp", "modify_qp");
        Action.ModifyQp rtr = (Action.ModifyQp) tc03.steps().get(3).action();
        assertThat(rtr.attrs()).containsEntry(QpField.AH_IS_GLOBAL, Value.num(0)).doesNotContainKey(QpField.AH_DGID);
        Action.ModifyQp extra = (Action.ModifyQp) tc03.steps().get(5).action();
        assertThat(extra.attrs()).containsEntry(QpField.QP_STATE, Value.text("RTS")).containsEntry(QpField.MIN_RNR_TIMER, Value.num(3));
    }

    @Test
    void yaml_readsTheSameAsJson(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("probe.yaml");
        Files.writeString(yaml, String.join("\n",
                "name: probe",
                "tests:",
                "  - id: P1",
                "    qps: first",
                "    stopOnFail: false",
                "    steps:",
                "      - do: modify_qp",
                "        attrs: {qp_state: RTR, path_mtu: 4096}",
                "        expect: {ret: EINVAL, qp_state: RESET}",
                ""));
        Path json = dir.resolve("probe.json");
        Files.writeString(json, "{\"name\":\"probe\",\"tests\":[{\"id\":\"P1\",\"qps\":\"first\",\"stopOnFail\":false,\"steps\":["
                + "{\"do\":\"modify_qp\",\"attrs\":{\"qp_state\":\"RTR\",\"path_mtu\":4096},\"expect\":{\"ret\":\"EINVAL\",\"qp_state\":\"RESET\"}}]}]}");
        ScenarioSpec fromYaml = ScenarioJson.read(yaml);
        assertThat(fromYaml).isEqualTo(ScenarioJson.read(json));
        Step s = fromYaml.testCases().get(0).steps().get(0);
        assertThat(s.expect()).isEqualTo(new Expect(Expect.Outcome.ERRNO, "EINVAL", 0, null));
    }

    @Test
    void unknownKey_isAnErrorNamingTheStep(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("typo.json");
        Files.writeString(f, "{\"tests\":[{\"id\":\"T\",\"steps\":[{\"do\":\"poll\",\"sends\":1,\"recv\":1}]}]}");
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioJson.read(f));
        assertThat(e).hasMessageContaining("typo.json").hasMessageContaining("test case T, step 1")
                .hasMessageContaining("unknown key \"recv\"");
    }

    @Test
    void unknownAttribute_listsTheKnownOnes() {
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioJson.parse(
                "{\"tests\":[{\"id\":\"T\",\"steps\":[{\"do\":\"modify_qp\",\"attrs\":{\"mtu\":3}}]}]}"));
        assertThat(e).hasMessageContaining("unknown QP attribute 'mtu'").hasMessageContaining("path_mtu");
    }

    @Test
    void badJson_saysWhere() {
        ScenarioException e = catchThrowableOfType(ScenarioException.class, () -> ScenarioJson.parse("{\"tests\": [}"));
        assertThat(e).hasMessageContaining("not valid JSON");
    }
}
