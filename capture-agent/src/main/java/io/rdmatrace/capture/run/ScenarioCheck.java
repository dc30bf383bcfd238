package io.rdmatrace.capture.run;

import io.rdmatrace.abi.QpField;
import io.rdmatrace.capture.scenario.Action;
import io.rdmatrace.capture.scenario.BringUpScenario;
import io.rdmatrace.capture.scenario.ScenarioSpec;
import io.rdmatrace.capture.scenario.Step;
import io.rdmatrace.capture.scenario.TestCase;
import io.rdmatrace.capture.scenario.Value;
import java.util.List;
import java.util.Map;

/**
 * Checks a scenario's literal values before anything starts, so a value that cannot work is a
 * usage error naming it instead of a failure half-way through a capture: repeat counts (a number,
 * at least 1) and the attributes of every modify_qp step (each literal must convert to its field's
 * type, e.g. path_mtu=abc is refused). References ($name) are resolved and checked at run time.
 */
public final class ScenarioCheck {

    private ScenarioCheck() {
    }

    /** @throws IllegalArgumentException naming the test case, step and value */
    public static void check(ScenarioSpec spec) {
        for (TestCase tc : spec.testCases()) {
            checkRepeat(tc.id(), tc.repeat());
            int n = 0;
            for (Step step : tc.steps()) {
                n++;
                if (step.action() instanceof Action.ModifyQp m) {
                    checkAttrs(tc.id() + " step " + n + " (modify_qp)", m.attrs());
                }
            }
        }
    }

    /** The --modify-in-rts values, checked as the step they become. */
    public static void checkModifyInRts(List<String> specs) {
        try {
            checkAttrs("--modify-in-rts", BringUpScenario.modifyInRtsAttrs(specs));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith("--modify-in-rts") ? e.getMessage()
                    : "--modify-in-rts: " + e.getMessage(), e);
        }
    }

    static void checkRepeat(String where, Value repeat) {
        if (repeat instanceof Value.Ref) {
            return;
        }
        long n;
        try {
            n = Values.number(repeat, where + " repeat");
        } catch (StepException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (n < 1) {
            throw new IllegalArgumentException(where + " repeat must be at least 1, got " + n);
        }
    }

    private static void checkAttrs(String where, Map<QpField, Value> attrs) {
        for (Map.Entry<QpField, Value> e : attrs.entrySet()) {
            if (e.getValue() instanceof Value.Ref) {
                continue;
            }
            try {
                QpModifier.checkLiteral(e.getKey(), e.getValue());
            } catch (RuntimeException x) {
                throw new IllegalArgumentException(where + ": " + e.getKey().name().toLowerCase(java.util.Locale.ROOT)
                        + "=" + e.getValue() + " is not a valid value: " + x.getMessage(), x);
            }
        }
    }
}
