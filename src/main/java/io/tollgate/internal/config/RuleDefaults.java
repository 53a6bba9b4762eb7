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
    private final List<Conflict> conflicts = new ArrayList<>();

    /**
     * Two annotations that give one attribute different values.
     *
     * @param attribute the rule attribute
     * @param before    the value given first, as a problem line shows it
     * @param offered   the value that differs
     * @param element   the annotated element that gives {@code offered}
     */
    record Conflict(String attribute, String before, String offered, String element) {

        @Override
        public String toString() {
            return before + " elsewhere, " + offered + " on " + element;
        }
    }

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
                conflicts.add(new Conflict("burst", Long.toString(this.burst), Long.toString(burst), element));
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
            conflicts.add(new Conflict(attribute, "'" + current + "'", "'" + offered + "'", element));
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

    List<Conflict> conflicts() {
        return Collections.unmodifiableList(conflicts);
    }
}
