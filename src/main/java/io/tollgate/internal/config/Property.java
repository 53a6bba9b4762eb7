package io.tollgate.internal.config;

import java.util.Optional;

/**
 * One property, declared once: its name, its default, how its text is read, and the default as the
 * README's configuration reference writes it. The reader, the README's tables and the tests all come
 * from these declarations ({@link GlobalProperties}, {@link RuleAttributes}).
 *
 * @param name              the property, or the attribute of a rule
 * @param defaultValue      the value when the property is not set (or, for some, blank)
 * @param parser            reads a value that is set
 * @param documentedDefault the default as the README gives it
 * @param <T>               the value
 */
public record Property<T>(String name, T defaultValue, Parser<T> parser, String documentedDefault) {

    /** @return a property whose default is {@code defaultText} read by {@code parser}; an empty text documents "(none)" */
    static <T> Property<T> of(String name, String defaultText, Parser<T> parser) {
        return new Property<>(name, parser.parse(defaultText), parser, defaultText.isEmpty() ? "(none)" : "`" + defaultText + "`");
    }

    /** @return a property whose default is not a text, such as one worked out from other properties */
    static <T> Property<T> described(String name, T defaultValue, Parser<T> parser, String documentedDefault) {
        return new Property<>(name, defaultValue, parser, documentedDefault);
    }

    /** @return the value of this global property, its default if unset or refused (then in {@code problems}) */
    T read(Settings settings, ConfigProblems problems) {
        return read(name, settings.get(name), problems);
    }

    /**
     * @param property the property's full name, for a problem line
     * @param text     its text, if set
     * @return the value of {@code text}, the default if there is none or it is refused (then in {@code problems})
     */
    T read(String property, Optional<String> text, ConfigProblems problems) {
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            T value = parser.parse(text.get());
            return value == null ? defaultValue : value;
        } catch (InvalidItems e) {
            for (InvalidItems.Item item : e.items()) {
                problems.invalid(property, item.shown() == null ? text.get() : item.shown(), item.reason());
            }
        } catch (IllegalArgumentException e) {
            problems.invalid(property, text.get(), e.getMessage());
        }
        return defaultValue;
    }
}
