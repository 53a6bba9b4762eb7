package io.tollgate.simulator.report;

import java.util.Arrays;

/** A growable list of longs, without boxing: simulations record millions of them. */
public final class LongList {

    private long[] values = new long[16];
    private int size;

    public void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    public long get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return values[index];
    }

    public int size() {
        return size;
    }

    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
