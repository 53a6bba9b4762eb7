package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the annotations in an application say about one rule: inline attributes (which configuration
 * overrides) and where the rule is used (for error messages).
 */
public final class RuleDefaults {

    private final String name;
    private String rate = "";
    private long burst;
    private String key = "";
    private String cost = "";
    private final List<String> usedBy = new ArrayList<>();
    private final List<String> conflicts = new ArrayList<>();

    public RuleDefaults(String name) {
        this.name = name;
    }

    /**
     * Records one annotation's view of the rule; empty attributes say nothing. Two annotations that
     * give one rule different values are reported as a conflict.
     */
    public RuleDefaults merge(String element, String rate, long burst, String key, String cost) {
        usedBy.add(element);
        this.rate = pick("rate", this.rate, rate, element);
        this.key = pick("key", this.key, key, element);
        this.cost = pick("cost", this.cost, cost, element);
        if (burst != 0) {
            if (this.burst != 0 && this.burst != burst) {
                conflicts.add("burst: " + this.burst + " elsewhere, " + burst + " on " + element);
            }
            this.burst = burst;
        }
        return this;
    }

    private String pick(String attribute, String current, String offered, String element) {
        if (offered == null || offered.isEmpty()) {
            return current;
        }
        if (!current.isEmpty() && !current.equals(offered)) {
            conflicts.add(attribute + ": '" + current + "' elsewhere, '" + offered + "' on " + element);
        }
        return offered;
    }

    public String name() {
        return name;
    }

    String rate() {
        return rate;
    }

    long burst() {
        return burst;
    }

    String key() {
        return key;
    }

    String cost() {
        return cost;
    }

    List<String> usedBy() {
        return Collections.unmodifiableList(usedBy);
    }

    List<String> conflicts() {
        return Collections.unmodifiableList(conflicts);
    }
}
