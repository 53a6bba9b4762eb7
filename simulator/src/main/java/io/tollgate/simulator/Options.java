package io.tollgate.simulator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A command line: positional arguments and {@code --name value} options, each known option checked. */
public final class Options {

    private static final Set<String> KNOWN = Set.of("--out", "--seed", "--rules", "--format", "--strip-prefix");

    private final List<String> arguments;
    private final Map<String, String> values;

    private Options(List<String> arguments, Map<String, String> values) {
        this.arguments = arguments;
        this.values = values;
    }

    /** @throws InvalidInputException for an unknown option or one without its value */
    public static Options parse(String[] args) {
        List<String> arguments = new ArrayList<>();
        Map<String, String> values = new LinkedHashMap<>();
        InputProblems problems = new InputProblems();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--")) {
                if (!KNOWN.contains(arg)) {
                    problems.add(arg, null, "unknown option; known ones are " + String.join(", ", KNOWN.stream().sorted().toList()));
                } else if (i + 1 >= args.length) {
                    problems.add(arg, null, "needs a value");
                } else {
                    values.put(arg, args[++i]);
                }
            } else {
                arguments.add(arg);
            }
        }
        problems.throwIfAny("command line");
        return new Options(arguments, values);
    }

    public Optional<String> value(String option) {
        return Optional.ofNullable(values.get(option));
    }

    public Path path(String option, Path fallback) {
        return value(option).map(Path::of).orElse(fallback);
    }

    /** @throws InvalidInputException if the argument is missing */
    public Path argument(int index, String what) {
        if (index >= arguments.size()) {
            throw new InvalidInputException("Missing " + what + "\n" + Main.USAGE, List.of("missing " + what));
        }
        return Path.of(arguments.get(index));
    }
}
