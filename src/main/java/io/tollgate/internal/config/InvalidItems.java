package io.tollgate.internal.config;

import java.util.List;

/** A list value with bad items: each is reported on a line of its own. */
final class InvalidItems extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * One bad item.
     *
     * @param shown  the value the problem line shows: the item, or {@code null} for the whole text
     * @param reason why it is refused
     */
    record Item(String shown, String reason) {
    }

    private final transient List<Item> items;

    InvalidItems(List<Item> items) {
        super(items.get(0).reason());
        this.items = List.copyOf(items);
    }

    List<Item> items() {
        return items;
    }
}
