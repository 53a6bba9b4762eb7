package io.tollgate.examples;

import io.tollgate.readme.HttpExample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an example's README tells a user to do and what it says they see: its first {@code bash} block, the commands
 * that build and start the server (one per line, continuations joined); its second, the requests to send, whose URLs
 * are the application's unlimited resource, then its limited one; its {@code http} block, the 429 they get.
 */
record ExampleReadme(List<String> commands, List<String> urls, HttpExample denial) {

    private static final Pattern BASH_BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern HTTP_BLOCK = Pattern.compile("```http\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:\\d+[^\\s'\";]*");

    static ExampleReadme of(Path readme) throws IOException {
        String text = Files.readString(readme);
        Matcher http = HTTP_BLOCK.matcher(text);
        if (!http.find()) {
            throw new IllegalStateException(readme + " needs an http block: the 429 a user sees");
        }
        HttpExample denial = HttpExample.parse(http.group(1).strip());
        List<String> blocks = new ArrayList<>();
        Matcher block = BASH_BLOCK.matcher(text);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        if (blocks.size() < 2) {
            throw new IllegalStateException(readme + " needs two bash blocks (run, then curl); it has " + blocks.size());
        }
        List<String> commands = blocks.get(0).replace("\\\n", " ").lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .toList();
        List<String> urls = new ArrayList<>();
        Matcher url = URL.matcher(blocks.get(1));
        while (url.find()) {
            if (!urls.contains(url.group())) {
                urls.add(url.group());
            }
        }
        if (commands.isEmpty() || urls.size() != 2) {
            throw new IllegalStateException(readme + ": expected commands and two URLs (unlimited, limited), found "
                    + commands + " and " + urls);
        }
        return new ExampleReadme(commands, urls, denial);
    }

    /** The command that starts the server: the last one; it runs until stopped. */
    String serverCommand() {
        return commands.get(commands.size() - 1);
    }

    /** The commands before it: they build and end. */
    List<String> buildCommands() {
        return commands.subList(0, commands.size() - 1);
    }

    String unlimitedUrl() {
        return urls.get(0);
    }

    String limitedUrl() {
        return urls.get(1);
    }
}
