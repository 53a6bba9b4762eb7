package io.tollgate.simulator;

import io.tollgate.simulator.report.Result;
import io.tollgate.simulator.traffic.ScenarioReader;
import java.util.LinkedHashMap;
import java.util.Map;

/** Scenarios written in tests as lines of properties. */
final class Scenarios {

    private Scenarios() {
    }

    static Map<String, String> properties(String... lines) {
        return PropertiesFile.parse(String.join("\n", lines));
    }

    static Result run(String... lines) {
        return Simulation.run(ScenarioReader.read(properties(lines)));
    }

    static Result run(Map<String, String> properties) {
        return Simulation.run(ScenarioReader.read(new LinkedHashMap<>(properties)));
    }
}
