package io.rdmatrace.capture.run;

import java.util.List;

/**
 * A scenario as an engine (the async-profiler Engine contract): {@link #start} runs its test cases
 * and returns an error value instead of throwing; {@link #stop} always releases what it created.
 */
interface Scenario {
    String name();

    ScenarioError start(AgentState state);

    void stop();

    /** The test cases run so far, in order. */
    List<TestCaseResult> results();
}
