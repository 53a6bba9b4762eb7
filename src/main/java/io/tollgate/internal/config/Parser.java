package io.tollgate.internal.config;

/**
 * Turns the text of one property into its value.
 *
 * @param <T> the value
 */
@FunctionalInterface
public interface Parser<T> {

    /**
     * @param text the property's text as set, untrimmed
     * @return the value, or {@code null} for a text that means the property's default (a blank one, for some)
     * @throws IllegalArgumentException saying why the text is refused; {@link InvalidItems} for several reasons
     */
    T parse(String text);
}
