package io.tollgate.internal.config;

import java.util.ArrayList;
import java.util.List;

/** The one way a property lists things: comma-separated, each item trimmed, blank items skipped. */
public final class CommaList {

    private CommaList() {
    }

    /** @return the items of {@code text}, in order */
    public static List<String> items(String text) {
        List<String> items = new ArrayList<>();
        for (String item : text.split(",")) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    /**
     * @param text   the list
     * @param parser reads one item
     * @param shown  whether a problem line shows the bad item ({@code true}) or the whole list
     * @return every item parsed
     * @throws InvalidItems naming every bad item
     */
    static <T> List<T> parse(String text, Parser<T> parser, boolean shown) {
        List<T> values = new ArrayList<>();
        List<InvalidItems.Item> bad = new ArrayList<>();
        for (String item : items(text)) {
            try {
                values.add(parser.parse(item));
            } catch (IllegalArgumentException e) {
                bad.add(new InvalidItems.Item(shown ? item : null, e.getMessage()));
            }
        }
        if (!bad.isEmpty()) {
            throw new InvalidItems(bad);
        }
        return values;
    }
}
