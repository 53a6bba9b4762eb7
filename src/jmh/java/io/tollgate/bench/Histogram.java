package io.tollgate.bench;

/**
 * Latencies in nanoseconds, log-linear: 32 buckets per power of two, so a percentile is reported
 * within 3 % (the bucket's upper edge). Recording allocates nothing. Not thread-safe: one per
 * thread, merged at the end.
 */
final class Histogram {

    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS) * SUB + SUB;

    private final long[] counts = new long[BUCKETS];
    private long total;
    private long max;
    private double sum;

    void record(long nanos) {
        long v = Math.max(nanos, 0);
        counts[index(v)]++;
        total++;
        sum += v;
        if (v > max) {
            max = v;
        }
    }

    void reset() {
        java.util.Arrays.fill(counts, 0);
        total = 0;
        max = 0;
        sum = 0;
    }

    void add(Histogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        sum += other.sum;
        max = Math.max(max, other.max);
    }

    /** @return this histogram as one line of text, for {@link #decode} in another process */
    String encode() {
        StringBuilder line = new StringBuilder().append(total).append(' ').append(max).append(' ').append(sum);
        for (int i = 0; i < BUCKETS; i++) {
            if (counts[i] != 0) {
                line.append(' ').append(i).append(':').append(counts[i]);
            }
        }
        return line.toString();
    }

    /** @return the histogram {@link #encode} wrote */
    static Histogram decode(String line) {
        String[] words = line.trim().split(" ");
        Histogram histogram = new Histogram();
        histogram.total = Long.parseLong(words[0]);
        histogram.max = Long.parseLong(words[1]);
        histogram.sum = Double.parseDouble(words[2]);
        for (int i = 3; i < words.length; i++) {
            int colon = words[i].indexOf(':');
            histogram.counts[Integer.parseInt(words[i].substring(0, colon))] = Long.parseLong(words[i].substring(colon + 1));
        }
        return histogram;
    }

    long count() {
        return total;
    }

    double mean() {
        return total == 0 ? Double.NaN : sum / total;
    }

    long max() {
        return max;
    }

    /** @return the smallest recorded bucket's upper edge below which {@code percent} % of the values lie */
    long percentile(double percent) {
        if (total == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(percent / 100.0 * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= Math.max(rank, 1)) {
                return Math.min(upperEdge(i), max);
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
        int sub = (int) (v >>> (exponent - SUB_BITS)) & (SUB - 1);
        return (exponent - SUB_BITS + 1) * SUB + sub;
    }

    /** @return the largest value that falls in bucket {@code index} */
    static long upperEdge(int index) {
        if (index < SUB) {
            return index;
        }
        int exponent = index / SUB + SUB_BITS - 1;
        long sub = index % SUB;
        long lower = (1L << exponent) + (sub << (exponent - SUB_BITS));
        return lower + (1L << (exponent - SUB_BITS)) - 1;
    }
}
