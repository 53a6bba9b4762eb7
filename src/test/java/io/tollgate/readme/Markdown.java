package io.tollgate.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fenced code blocks and inline code spans of a Markdown file, as a reader copies them. A block may be
 * preceded by a marker, an HTML comment {@code <!-- readme: <marker> -->} on the line before its fence
 * (invisible when rendered), which tells the README test what kind of example it is.
 */
public final class Markdown {

    private static final Pattern FENCE = Pattern.compile("^( {0,3})(`{3,}|~{3,})\\s*([^`\\s]*)[^`]*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*readme:\\s*(.*?)\\s*-->\\s*$");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^()\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    /** One fenced block. */
    public record Block(Path file, int line, String info, String text, String section, String marker) {

        /** @return where the block is, for messages: {@code README.md:60 (properties, "Quick start")} */
        public String where() {
            return file + ":" + line + " (" + (info.isEmpty() ? "no info string" : info) + ", \"" + section + "\")";
        }
    }

    /** One inline code span outside fenced blocks. */
    public record Span(Path file, int line, String text) {

        public String where() {
            return file + ":" + line;
        }
    }

    /** One link or image outside code: its target as written ({@code ../guides/bans.md#counting}). */
    public record Link(Path file, int line, String target) {

        public String where() {
            return file + ":" + line;
        }
    }

    private final Path file;
    private final List<Block> blocks = new ArrayList<>();
    private final List<Span> spans = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final List<String> headings = new ArrayList<>();

    private Markdown(Path file, List<String> lines) {
        this.file = file;
        parse(lines);
    }

    /**
     * @param root the repository root
     * @param file the Markdown file, relative to {@code root} (kept relative in {@link Block#file()})
     */
    public static Markdown read(Path root, Path file) {
        try {
            return new Markdown(file, Files.readAllLines(root.resolve(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Block> blocks() {
        return blocks;
    }

    public List<Span> spans() {
        return spans;
    }

    public List<Link> links() {
        return links;
    }

    /** @return the anchors of the headings, as GitHub makes them: lower case, punctuation dropped, spaces as {@code -}, {@code -1}... for repeats */
    public List<String> anchors() {
        List<String> anchors = new ArrayList<>();
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        for (String heading : headings) {
            String slug = heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return anchors;
    }

    /** @return the blocks of the section (heading text) {@code section}, in order */
    public List<Block> section(String section) {
        return blocks.stream().filter(b -> b.section().equals(section)).toList();
    }

    private void parse(List<String> lines) {
        String section = "";
        String marker = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                String indent = fence.group(1);
                String close = fence.group(2);
                StringBuilder text = new StringBuilder();
                int start = i + 1;
                for (i++; i < lines.size() && !isClosing(lines.get(i), close); i++) {
                    String content = lines.get(i);
                    text.append(content.startsWith(indent) ? content.substring(indent.length()) : content.stripLeading())
                            .append('\n');
                }
                blocks.add(new Block(file, start, fence.group(3).toLowerCase(Locale.ROOT), text.toString(), section, marker));
                marker = null;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            Matcher comment = MARKER.matcher(line);
            if (heading.matches()) {
                section = heading.group(1);
                headings.add(section);
            } else if (comment.matches()) {
                marker = comment.group(1);
                continue;
            }
            if (!line.isBlank()) {
                marker = null;
            }
            Matcher inline = INLINE.matcher(line);
            while (inline.find()) {
                spans.add(new Span(file, i + 1, inline.group(2).strip()));
            }
            Matcher link = LINK.matcher(INLINE.matcher(line).replaceAll(""));
            while (link.find()) {
                links.add(new Link(file, i + 1, link.group(1)));
            }
        }
    }

    private static boolean isClosing(String line, String open) {
        String stripped = line.strip();
        return stripped.length() >= open.length() && stripped.chars().allMatch(c -> c == open.charAt(0));
    }
}
