package io.tollgate.it.payara;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Payara Micro has no options file: a word {@code @file} among options stands here for the options listed
 * in that file (whitespace-separated, lines starting with {@code #} left out; a relative file argument of
 * {@code --prebootcommandfile} and the like is relative to the file's folder). That is how the tests run
 * with the production files server-config/payara/payara-micro.options and jvm.args.
 */
final class OptionFiles {

    /** Payara Micro options whose argument is a file. */
    private static final Set<String> FILE_OPTIONS = Set.of("--prebootcommandfile", "--postbootcommandfile",
            "--postdeploycommandfile", "--hzconfigfile", "--systemproperties", "--logproperties", "--domainconfig",
            "--addlibs", "--addjars", "--rootdir");

    private OptionFiles() {
    }

    /** @return {@code options} with every {@code @file} replaced by the file's options, space-separated */
    static String expand(String options) {
        List<String> out = new ArrayList<>();
        for (String word : options.trim().split("\\s+")) {
            if (word.startsWith("@") && word.length() > 1) {
                out.addAll(read(Path.of(word.substring(1))));
            } else if (!word.isEmpty()) {
                out.add(word);
            }
        }
        return String.join(" ", out);
    }

    private static List<String> read(Path file) {
        List<String> words = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                for (String word : text.split("\\s+")) {
                    String previous = words.isEmpty() ? "" : words.get(words.size() - 1);
                    if (FILE_OPTIONS.contains(previous.toLowerCase(Locale.ROOT)) && !Path.of(word).isAbsolute()) {
                        word = file.toAbsolutePath().getParent().resolve(word).normalize().toString();
                    }
                    words.add(word);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Payara Micro options file " + file, e);
        }
        return words;
    }
}
