package io.tollgate.simulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

final class TuningGuide {
    private TuningGuide() {
    }

    static void write(Path dir, PrintStream out) throws IOException {
    }
}
