package io.tollgate.internal.runtime;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The attributes of one rule set at runtime through the operator API, with who set them last and when. Shared between
 * members as a plain text (properties syntax), which every member reads without Tollgate's classes.
 *
 * @param attributes attribute name to value text, as the rule's properties would give them
 * @param by         the member where the last change was made
 * @param caller     the authenticated caller who made it, or {@code null} where the application had none
 * @param at         when it was made
 */
public record RuleOverlay(Map<String, String> attributes, String by, String caller, Instant at) {

    private static final String ATTRIBUTE = "attribute.";
    private static final String BY = "changed-by";
    private static final String CALLER = "changed-by-caller";
    private static final String AT = "changed-at";

    public RuleOverlay {
        attributes = Collections.unmodifiableMap(new TreeMap<>(attributes));
    }

    /**
     * @return the overlay as text: {@code attribute.rate=100/1s}, {@code changed-by=...}, {@code changed-by-caller=...},
     *         {@code changed-at=...}
     */
    public String encode() {
        Properties properties = new Properties();
        attributes.forEach((name, value) -> properties.setProperty(ATTRIBUTE + name, value));
        properties.setProperty(BY, by);
        if (caller != null) {
            properties.setProperty(CALLER, caller);
        }
        properties.setProperty(AT, at.toString());
        StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString().replaceFirst("^#[^\n]*\n", ""); // no date comment
    }

    /**
     * @return the overlay a value read from the shared map encodes
     * @throws IllegalArgumentException, saying why, for anything but the text of an overlay (a write to the map by
     *         anything but Tollgate)
     */
    public static RuleOverlay read(Object value) {
        if (!(value instanceof String text)) {
            throw new IllegalArgumentException("a " + (value == null ? "null" : value.getClass().getName())
                    + " where the text of a rule change belongs");
        }
        try {
            return decode(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("a text that is no rule change (" + e.getMessage() + ")", e);
        }
    }

    /** @return the overlay {@code text} encodes */
    public static RuleOverlay decode(String text) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> attributes = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith(ATTRIBUTE)) {
                attributes.put(name.substring(ATTRIBUTE.length()), properties.getProperty(name));
            }
        }
        String at = properties.getProperty(AT);
        return new RuleOverlay(attributes, properties.getProperty(BY, "unknown"), properties.getProperty(CALLER),
                at == null ? Instant.EPOCH : Instant.parse(at));
    }
}
