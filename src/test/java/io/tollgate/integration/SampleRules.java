package io.tollgate.integration;

import java.util.LinkedHashMap;
import java.util.Map;

/** Rule definitions for the sample resources, one bucket of one token per key unless a test says otherwise. */
public final class SampleRules {

    private SampleRules() {
    }

    /** The rules of {@link io.tollgate.app.KeysResource}: one token per hour per key, each rule keyed its own way. */
    public static Map<String, String> keys() {
        Map<String, String> rules = new LinkedHashMap<>();
        oneTokenPerHour(rules, "by-ip", "ip");
        oneTokenPerHour(rules, "by-header", "header:X-Api-Key");
        oneTokenPerHour(rules, "by-query", "query:api_key");
        oneTokenPerHour(rules, "by-principal", "principal");
        oneTokenPerHour(rules, "by-claim", "jwt:tenant");
        oneTokenPerHour(rules, "by-path", "path");
        oneTokenPerHour(rules, "by-composite", "header:X-Api-Key, query:region");
        oneTokenPerHour(rules, "everyone", "global");
        oneTokenPerHour(rules, "by-resolver", "resolver:io.tollgate.app.TenantKeys");
        return rules;
    }

    static void oneTokenPerHour(Map<String, String> rules, String rule, String key) {
        rules.put("tollgate.rules." + rule + ".rate", "1/1h");
        rules.put("tollgate.rules." + rule + ".burst", "1");
        rules.put("tollgate.rules." + rule + ".key", key);
    }
}
