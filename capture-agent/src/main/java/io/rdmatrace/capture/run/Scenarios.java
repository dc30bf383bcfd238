package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.CaptureConfig;
import io.rdmatrace.capture.scenario.BringUpScenario;
import io.rdmatrace.capture.scenario.ScenarioJson;
import io.rdmatrace.capture.scenario.ScenarioSpec;
import java.io.IOException;

/** The scenarios an agent can run, as an enum of factories. */
enum Scenarios {
    /** The built-in TC01–TC04 shaped by the override options. */
    BRINGUP(BringUpScenario::build),
    /** A --scenario file (JSON or YAML). */
    FILE(config -> ScenarioJson.read(config.scenarioFile()));

    private interface SpecFactory {
        ScenarioSpec spec(CaptureConfig config) throws IOException;
    }

    private final SpecFactory factory;

    Scenarios(SpecFactory factory) {
        this.factory = factory;
    }

    static Scenarios of(CaptureConfig config) {
        return config.scenarioFile() != null ? FILE : BRINGUP;
    }

    ScenarioSpec spec(CaptureConfig config) throws IOException {
        return factory.spec(config);
    }

    Scenario create(CaptureConfig config) throws IOException {
        return new StepScenario(spec(config));
    }
}
