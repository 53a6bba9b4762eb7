package io.tollgate.readme;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a shell script into simple commands and their words, as far as the README test needs: quotes
 * removed, comments dropped, line continuations joined; {@code ; && || | &}, newlines and command
 * substitutions {@code $( )} separate commands.
 */
final class Shell {

    private Shell() {
    }

    static List<List<String>> commands(String script) {
        List<List<String>> commands = new ArrayList<>();
        List<String> command = new ArrayList<>();
        StringBuilder word = null;
        String text = script.replace("\\\n", " ");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int end = i + 1;
                StringBuilder quoted = word == null ? new StringBuilder() : word;
                for (; end < text.length() && text.charAt(end) != c; end++) {
                    if (c == '"' && text.charAt(end) == '\\' && end + 1 < text.length()) {
                        end++;
                    }
                    quoted.append(text.charAt(end));
                }
                word = quoted;
                i = end;
            } else if (c == '#' && word == null) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
                i--;
            } else if (c == ' ' || c == '\t' || c == '>' || c == '<') {
                word = flush(command, word);
            } else if (c == '\n' || c == ';' || c == '&' || c == '|' || c == ')' || (c == '$' && next(text, i) == '(')) {
                word = flush(command, word);
                if (!command.isEmpty()) {
                    commands.add(command);
                    command = new ArrayList<>();
                }
                if (c == '$') {
                    i++;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        flush(command, word);
        if (!command.isEmpty()) {
            commands.add(command);
        }
        return commands;
    }

    private static char next(String text, int i) {
        return i + 1 < text.length() ? text.charAt(i + 1) : 0;
    }

    private static StringBuilder flush(List<String> command, StringBuilder word) {
        if (word != null) {
            command.add(word.toString());
        }
        return null;
    }
}
