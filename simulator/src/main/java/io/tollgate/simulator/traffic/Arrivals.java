package io.tollgate.simulator.traffic;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The arrival times of one client, phase after phase: evenly spaced, or a Poisson process whose
 * rate follows the phases. Deterministic for the random source it is given.
 */
public final class Arrivals {

    /** How arrivals are spaced. */
    public enum Spacing {
        /** Exponential gaps: independent arrivals at the phase's rate (the usual model of many users). */
        POISSON,
        /** Exactly {@code 1/rate} apart: a job, a timer, a load generator. */
        EVEN;

        static Spacing parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be poisson or even");
            }
        }
    }

    private final List<Phase> phases;
    private final Spacing spacing;
    private final SplittableRandom random;
    private int phase;
    private long phaseStart;
    private double target;

    public Arrivals(List<Phase> phases, Spacing spacing, SplittableRandom random) {
        this.phases = phases;
        this.spacing = spacing;
        this.random = random;
        this.target = spacing == Spacing.EVEN ? 0 : exponential();
    }

    /** @return the next arrival, µs from the start of the traffic, or -1 when the phases are over */
    public long next() {
        while (phase < phases.size()) {
            Phase current = phases.get(phase);
            long at = current.inverse(target);
            if (at >= 0) {
                target += spacing == Spacing.EVEN ? 1 : exponential();
                return phaseStart + at;
            }
            target -= current.expected(current.durationMicros());
            if (target < 0) {
                target = 0; // rounding at the boundary: the arrival falls at the start of the next phase
            }
            phaseStart += current.durationMicros();
            phase++;
        }
        return -1;
    }

    private double exponential() {
        return -Math.log(1 - random.nextDouble());
    }
}
