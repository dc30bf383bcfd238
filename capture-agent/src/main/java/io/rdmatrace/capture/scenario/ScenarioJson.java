package io.rdmatrace.capture.scenario;

import io.rdmatrace.abi.QpField;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rdmatrace.capture.config.Symbols;
import io.rdmatrace.trace.names.VerbsNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads and writes scenarios as JSON (or YAML, by file extension .yaml/.yml). The format:
 * <pre>
 * {"name": "...", "description": "...",
 *  "tests": [{"id": "TC02", "title": "...", "stopOnFail": false, "qps": "first", "repeat": 1,
 *             "steps": [{"do": "modify_qp", "attrs": {"qp_state": "RTS", "sq_psn": "$sq_psn"},
 *                        "expect": {"ret": "fail", "qp_state": "RESET"}}]}]}
 * </pre>
 * Unknown keys are errors, so a typo in a scenario fails loudly instead of being ignored.
 */
public final class ScenarioJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioJson() {
    }

    /** Reads a scenario file; errors name the file and the offending test case/step. */
    public static ScenarioSpec read(Path file) throws IOException {
        String text = Files.readString(file);
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        JsonNode root;
        try {
            root = name.endsWith(".yaml") || name.endsWith(".yml") ? yamlTree(text) : MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ScenarioException(file + ": not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " at line " + e.getLocation().getLineNr() : ""));
        } catch (YAMLException e) {
            throw new ScenarioException(file + ": not valid YAML: " + e.getMessage());
        }
        try {
            return parse(root);
        } catch (ScenarioException | IllegalArgumentException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }

    private static JsonNode yamlTree(String text) {
        Object data = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        return MAPPER.valueToTree(data);
    }

    public static ScenarioSpec parse(String json) {
        try {
            return parse(MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            throw new ScenarioException("not valid JSON: " + e.getOriginalMessage());
        }
    }

    static ScenarioSpec parse(JsonNode root) {
        requireObject(root, "the scenario");
        allowKeys(root, "the scenario", Set.of("name", "description", "tests"));
        JsonNode tests = root.get("tests");
        if (tests == null || !tests.isArray() || tests.isEmpty()) {
            throw new ScenarioException("\"tests\" must be a non-empty list of test cases");
        }
        List<TestCase> tcs = new ArrayList<>();
        for (JsonNode t : tests) {
            tcs.add(testCase(t));
        }
        return new ScenarioSpec(text(root, "name", "scenario"), text(root, "description", ""), tcs);
    }

    private static TestCase testCase(JsonNode t) {
        requireObject(t, "a test case");
        String id = text(t, "id", null);
        if (id == null) {
            throw new ScenarioException("a test case has no \"id\"");
        }
        String where = "test case " + id;
        allowKeys(t, where, Set.of("id", "title", "stopOnFail", "qps", "repeat", "steps"));
        String qps = text(t, "qps", "all");
        if (!qps.equals("all") && !qps.equals("first")) {
            throw new ScenarioException(where + ": \"qps\" must be \"all\" or \"first\"");
        }
        JsonNode steps = t.get("steps");
        if (steps == null || !steps.isArray() || steps.isEmpty()) {
            throw new ScenarioException(where + ": \"steps\" must be a non-empty list");
        }
        List<Step> list = new ArrayList<>();
        int i = 0;
        for (JsonNode s : steps) {
            i++;
            try {
                list.add(step(s));
            } catch (ScenarioException | IllegalArgumentException e) {
                throw new ScenarioException(where + ", step " + i + ": " + e.getMessage());
            }
        }
        boolean stopOnFail = !t.has("stopOnFail") || bool(t.get("stopOnFail"), where + " stopOnFail");
        Value repeat = t.has("repeat") ? value(t.get("repeat")) : Value.num(1);
        return new TestCase(id, text(t, "title", id), stopOnFail, qps.equals("first"), repeat, list);
    }

    private static Step step(JsonNode s) {
        requireObject(s, "a step");
        String op = text(s, "do", null);
        if (op == null) {
            throw new ScenarioException("a step has no \"do\"");
        }
        Action action = switch (op) {
            case "alloc_pd" -> only(s, new Action.AllocPd());
            case "reg_mr" -> {
                allowKeys(s, op, Set.of("do", "expect", "access"));
                yield new Action.RegMr(valueOr(s, "access", Value.ref("mr_access")));
            }
            case "create_cq" -> {
                allowKeys(s, op, Set.of("do", "expect", "cqe"));
                yield new Action.CreateCq(valueOr(s, "cqe", Value.ref("cq_depth")));
            }
            case "create_qp" -> {
                allowKeys(s, op, Set.of("do", "expect", "qp_type", "max_send_wr", "max_recv_wr", "max_send_sge",
                        "max_recv_sge", "max_inline_data"));
                yield new Action.CreateQp(valueOr(s, "qp_type", Value.ref("qp_type")),
                        valueOr(s, "max_send_wr", Value.ref("sq_depth")), valueOr(s, "max_recv_wr", Value.ref("rq_depth")),
                        valueOr(s, "max_send_sge", Value.num(1)), valueOr(s, "max_recv_sge", Value.num(1)),
                        valueOr(s, "max_inline_data", Value.num(0)));
            }
            case "modify_qp" -> {
                allowKeys(s, op, Set.of("do", "expect", "attrs", "mask"));
                JsonNode attrs = s.get("attrs");
                requireObject(attrs, "modify_qp \"attrs\"");
                Map<QpField, Value> map = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> e : attrs.properties()) {
                    map.put(QpField.byScenarioKey(e.getKey()), value(e.getValue()));
                }
                yield new Action.ModifyQp(map, s.has("mask") ? value(s.get("mask")) : null);
            }
            case "query_qp" -> only(s, new Action.QueryQp());
            case "create_ah" -> only(s, new Action.CreateAh());
            case "post_recv" -> {
                allowKeys(s, op, Set.of("do", "expect", "count"));
                yield new Action.PostRecv(valueOr(s, "count", Value.num(1)));
            }
            case "post_send" -> {
                allowKeys(s, op, Set.of("do", "expect", "op"));
                yield new Action.PostSend(valueOr(s, "op", Value.ref("op")));
            }
            case "poll" -> {
                allowKeys(s, op, Set.of("do", "expect", "sends", "recvs"));
                yield new Action.Poll(valueOr(s, "sends", Value.num(0)), valueOr(s, "recvs", Value.num(0)));
            }
            case "check_pattern" -> {
                allowKeys(s, op, Set.of("do", "expect", "op"));
                yield new Action.CheckPattern(valueOr(s, "op", Value.ref("op")));
            }
            case "exchange" -> only(s, new Action.Exchange());
            case "cm_connect" -> only(s, new Action.CmConnect());
            case "barrier" -> {
                allowKeys(s, op, Set.of("do", "expect", "phase"));
                yield new Action.Barrier(text(s, "phase", "rts"));
            }
            case "sleep" -> {
                allowKeys(s, op, Set.of("do", "expect", "ms"));
                yield new Action.Sleep(valueOr(s, "ms", Value.num(0)));
            }
            default -> throw new ScenarioException("unknown action \"" + op + "\"; one of alloc_pd, reg_mr, create_cq, "
                    + "create_qp, modify_qp, query_qp, create_ah, post_recv, post_send, poll, check_pattern, exchange, cm_connect, barrier, sleep");
        };
        return new Step(action, s.has("expect") ? expect(s.get("expect")) : Expect.OK);
    }

    private static Action only(JsonNode s, Action a) {
        allowKeys(s, a.op(), Set.of("do", "expect"));
        return a;
    }

    private static Expect expect(JsonNode e) {
        requireObject(e, "\"expect\"");
        allowKeys(e, "expect", Set.of("ret", "qp_state", "status"));
        Expect x = Expect.OK;
        String ret = text(e, "ret", "ok");
        if (ret.equalsIgnoreCase("fail")) {
            x = Expect.failure();
        } else if (!ret.equalsIgnoreCase("ok")) {
            if (!ret.toUpperCase(Locale.ROOT).startsWith("E")) {
                throw new ScenarioException("\"ret\" must be ok, fail or an errno name such as EINVAL, got \"" + ret + "\"");
            }
            x = new Expect(Expect.Outcome.ERRNO, ret.toUpperCase(Locale.ROOT), null, null);
        }
        if (e.has("qp_state")) {
            x = x.withQpState((int) Symbols.parseEnum(VerbsNames.QP_STATE, e.get("qp_state").asText()));
        }
        if (e.has("status")) {
            x = x.withWcStatus((int) Symbols.parseEnum(VerbsNames.WC_STATUS, e.get("status").asText()));
        }
        return x;
    }

    private static Value value(JsonNode n) {
        if (n.isIntegralNumber()) {
            return Value.num(n.asLong());
        }
        if (n.isBoolean()) {
            return Value.num(n.asBoolean() ? 1 : 0);
        }
        if (n.isTextual()) {
            return Value.parse(n.asText());
        }
        throw new ScenarioException("a value must be a whole number, a name or a $reference, got " + n);
    }

    private static Value valueOr(JsonNode s, String key, Value dflt) {
        return s.has(key) ? value(s.get(key)) : dflt;
    }

    private static String text(JsonNode n, String key, String dflt) {
        JsonNode v = n.get(key);
        if (v == null) {
            return dflt;
        }
        if (!v.isValueNode()) {
            throw new ScenarioException("\"" + key + "\" must be text");
        }
        return v.asText();
    }

    private static boolean bool(JsonNode n, String where) {
        if (!n.isBoolean()) {
            throw new ScenarioException(where + " must be true or false");
        }
        return n.asBoolean();
    }

    private static void requireObject(JsonNode n, String what) {
        if (n == null || !n.isObject()) {
            throw new ScenarioException(what + " must be an object");
        }
    }

    private static void allowKeys(JsonNode n, String where, Set<String> allowed) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new ScenarioException(where + ": unknown key \"" + k + "\" (allowed: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
        }
    }

    /** The scenario as JSON, in the format {@link #read} accepts. */
    public static String write(ScenarioSpec spec) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("name", spec.name());
        root.put("description", spec.description());
        ArrayNode tests = root.putArray("tests");
        for (TestCase tc : spec.testCases()) {
            ObjectNode t = tests.addObject();
            t.put("id", tc.id());
            t.put("title", tc.title());
            t.put("stopOnFail", tc.stopOnFail());
            t.put("qps", tc.firstQpOnly() ? "first" : "all");
            put(t, "repeat", tc.repeat());
            ArrayNode steps = t.putArray("steps");
            for (Step s : tc.steps()) {
                writeStep(steps.addObject(), s);
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain nodes always serialises", e);
        }
    }

    private static void writeStep(ObjectNode o, Step s) {
        Action a = s.action();
        o.put("do", a.op());
        if (a instanceof Action.RegMr m) {
            put(o, "access", m.access());
        } else if (a instanceof Action.CreateCq c) {
            put(o, "cqe", c.cqe());
        } else if (a instanceof Action.CreateQp q) {
            put(o, "qp_type", q.qpType());
            put(o, "max_send_wr", q.maxSendWr());
            put(o, "max_recv_wr", q.maxRecvWr());
            put(o, "max_send_sge", q.maxSendSge());
            put(o, "max_recv_sge", q.maxRecvSge());
            put(o, "max_inline_data", q.maxInlineData());
        } else if (a instanceof Action.ModifyQp m) {
            ObjectNode attrs = o.putObject("attrs");
            m.attrs().forEach((f, v) -> put(attrs, f.scenarioKey(), v));
            if (m.mask() != null) {
                put(o, "mask", m.mask());
            }
        } else if (a instanceof Action.PostRecv r) {
            put(o, "count", r.count());
        } else if (a instanceof Action.PostSend p) {
            put(o, "op", p.opKind());
        } else if (a instanceof Action.Poll p) {
            put(o, "sends", p.sends());
            put(o, "recvs", p.recvs());
        } else if (a instanceof Action.CheckPattern c) {
            put(o, "op", c.opKind());
        } else if (a instanceof Action.Barrier b) {
            o.put("phase", b.phase());
        } else if (a instanceof Action.Sleep z) {
            put(o, "ms", z.millis());
        }
        Expect x = s.expect();
        if (!x.equals(Expect.OK)) {
            ObjectNode e = o.putObject("expect");
            e.put("ret", switch (x.outcome()) {
                case OK -> "ok";
                case FAIL -> "fail";
                case ERRNO -> x.errno();
            });
            if (x.qpState() != null) {
                e.put("qp_state", shortName(VerbsNames.QP_STATE.nameOf(x.qpState()), "IBV_QPS_"));
            }
            if (x.wcStatus() != null) {
                e.put("status", shortName(VerbsNames.WC_STATUS.nameOf(x.wcStatus()), "IBV_WC_"));
            }
        }
    }

    private static String shortName(String name, String prefix) {
        return name != null && name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }

    private static void put(ObjectNode o, String key, Value v) {
        if (v instanceof Value.Num n) {
            o.put(key, n.value());
        } else {
            o.put(key, v.toString());
        }
    }
}
