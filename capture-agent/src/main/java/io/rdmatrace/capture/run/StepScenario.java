package io.rdmatrace.capture.run;

import io.rdmatrace.capture.scenario.ScenarioSpec;
import io.rdmatrace.capture.scenario.Step;
import io.rdmatrace.capture.scenario.TestCase;
import io.rdmatrace.trace.model.MarkEvent.Verdict;
import io.rdmatrace.verbs.VerbsResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs a {@link ScenarioSpec}: each test case is marked INFO when it starts and PASS/FAIL when it ends;
 * its steps run in order, per-QP steps across its QPs, {@code repeat} times. The first step that misses
 * its expectation fails the test case; a failed stopOnFail test case skips the rest and tells the peer.
 */
final class StepScenario implements Scenario {
    private static final int MAX_NOTES = 3;

    private final ScenarioSpec spec;
    private final List<TestCaseResult> results = new ArrayList<>();
    private AgentState state;

    StepScenario(ScenarioSpec spec) {
        this.spec = spec;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public ScenarioError start(AgentState st) {
        this.state = st;
        StepExecutor executor = new StepExecutor(st);
        ScenarioError first = ScenarioError.OK;
        String skipBecause = null;
        boolean stopAll = false;
        for (TestCase tc : spec.testCases()) {
            if (skipBecause != null) {
                record(tc, Verdict.SKIP, "skipped: " + skipBecause);
                continue;
            }
            st.recorder.mark(tc.id(), Verdict.INFO, tc.title());
            StepOutcome failed = null;
            List<String> notes = new ArrayList<>();
            int repeat = Values.intValue(executor.bindings().resolve(tc.repeat(), null, 0), tc.id() + " repeat");
            List<QpSlot> targets = tc.firstQpOnly() ? st.slots.subList(0, 1) : st.slots;
            if (repeat < 1) {
                failed = StepOutcome.fail("repeat must be at least 1, got " + repeat);
                repeat = 0; // a test case that runs nothing must not pass vacuously
            }
            run:
            for (int iter = 0; iter < repeat; iter++) {
                for (Step step : tc.steps()) {
                    for (QpSlot slot : step.action().perQp() ? targets : Collections.<QpSlot>singletonList(null)) {
                        String writeFailure = st.recorder.failureText();
                        if (writeFailure != null) {
                            // nothing more can be recorded: stop here, as cleanly as a failed step
                            failed = StepOutcome.fail(writeFailure);
                            stopAll = true;
                            break run;
                        }
                        StepOutcome o;
                        try {
                            o = executor.run(step, slot, iter);
                        } catch (InternalError e) {
                            // a write into the mapped trace faulted (full disk) and surfaced here
                            st.recorder.writeFailed(e);
                            failed = StepOutcome.fail(st.recorder.failureText());
                            stopAll = true;
                            break run;
                        }
                        if (!o.ok()) {
                            failed = o;
                            break run;
                        }
                        if (!o.text().isEmpty()) {
                            notes.add(o.text());
                        }
                    }
                }
            }
            if (failed == null) {
                record(tc, Verdict.PASS, notes.isEmpty() ? "ok" : TestCaseResult.summary(notes, MAX_NOTES), notes.isEmpty() ? List.of("ok") : notes);
                continue;
            }
            notes.add(failed.text());
            record(tc, Verdict.FAIL, failed.text(), notes);
            if (first.isOk()) {
                first = new ScenarioError(tc.id() + " " + tc.title() + ": " + failed.text());
            }
            if (tc.stopOnFail() || stopAll) {
                skipBecause = tc.id() + " failed";
                executor.peer().abort(tc.id() + " " + tc.title() + " failed: " + failed.text());
            }
        }
        return first;
    }

    private void record(TestCase tc, Verdict verdict, String text) {
        record(tc, verdict, text, List.of(text));
    }

    private void record(TestCase tc, Verdict verdict, String text, List<String> notes) {
        state.recorder.mark(tc.id(), verdict, text);
        results.add(new TestCaseResult(tc.id(), tc.title(), verdict, text, notes));
    }


    /** Destroys everything the steps created, newest first; each destroy is recorded like any call. */
    @Override
    public void stop() {
        if (state == null) {
            return;
        }
        if (state.cm != null) {
            state.cm.close(); // rdma_disconnect, DISCONNECTED, the ids: before their QPs go
        }
        for (QpSlot slot : state.slots) {
            destroy(slot.ah);
            destroy(slot.qp);
        }
        for (QpSlot slot : state.slots) {
            destroy(slot.cq);
            destroy(slot.mr);
            if (slot.memory != null && (slot.mr == null || slot.mr.isDestroyed())) {
                slot.memory.close();
            }
        }
        destroy(state.pd);
    }

    private static void destroy(VerbsResource r) {
        if (r != null && !r.isDestroyed()) {
            r.tryDestroy(); // a refusal (EBUSY) is recorded; nothing more to do about it here
        }
    }

    @Override
    public List<TestCaseResult> results() {
        return Collections.unmodifiableList(results);
    }
}
