package io.tollgate.simulator.traffic;

import io.tollgate.internal.config.RuleConfig;
import io.tollgate.internal.config.TollgateConfig;
import java.util.List;

/**
 * Rules (read by Tollgate's own configuration reader) and the traffic to run through them.
 *
 * @param config  the rules and Tollgate's global settings
 * @param applied the rules every request meets, in order (path rules are added by path)
 * @param charted the rule whose bucket the chart draws
 * @param clients the clients, one lane each
 * @param seed    the seed of every random draw
 * @param title   the chart's title
 */
public record Scenario(TollgateConfig config, List<RuleConfig> applied, RuleConfig charted, List<ClientModel> clients,
        long seed, String title) {

    /** @return how long the traffic lasts: the longest client's phases, in µs */
    public long durationMicros() {
        return clients.stream().mapToLong(ClientModel::durationMicros).max().orElse(0);
    }
}
