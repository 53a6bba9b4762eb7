package io.tollgate.simulator.chart;

import io.tollgate.simulator.report.Result;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.JFreeChart;
import java.awt.Dimension;
import java.io.StringWriter;
import org.apache.batik.dom.GenericDOMImplementation;
import org.apache.batik.svggen.SVGGeneratorContext;
import org.apache.batik.svggen.SVGGraphics2D;
import org.w3c.dom.Document;

/**
 * Writes charts: SVG (sharp at any size, small while the requests are few: the README's) and PNG
 * (at twice the size, for runs with so many requests that an SVG of every dot would be heavy).
 */
public final class ChartFiles {

    /** Beyond this many requests an SVG is not written: the PNG serves a reader better. */
    public static final int MAX_SVG_POINTS = 40_000;
    private static final String SVG_NS = "http://www.w3.org/2000/svg";

    private ChartFiles() {
    }

    /** One run's chart; returns the files written. */
    public static List<Path> write(Result result, Path svg, Path png) throws IOException {
        TrafficChart.Size size = TrafficChart.Size.FULL;
        int height = size.height(result.lanes().size());
        JFreeChart chart = TrafficChart.of(result, size);
        Panel[] panels = {new Panel(chart, 0, size.width(), height)};
        return write(panels, size.width(), height, points(result), svg, png);
    }

    /** Two runs side by side (the recommended rule and a wrong one), at full width together. */
    public static List<Path> writePair(Result left, Result right, Path svg, Path png) throws IOException {
        TrafficChart.Size size = TrafficChart.Size.HALF;
        int height = size.height(Math.max(left.lanes().size(), right.lanes().size()));
        long top = Math.max(TrafficChart.top(left), TrafficChart.top(right));
        Panel[] panels = {new Panel(TrafficChart.of(left, size, top), 0, size.width(), height),
            new Panel(TrafficChart.of(right, size, top), size.width(), size.width(), height)};
        return write(panels, 2 * size.width(), height, points(left) + points(right), svg, png);
    }

    private static long points(Result result) {
        return result.total().requests();
    }

    private static List<Path> write(Panel[] panels, int width, int height, long points, Path svg, Path png) throws IOException {
        List<Path> written = new java.util.ArrayList<>();
        if (svg != null && points <= MAX_SVG_POINTS) {
            Files.createDirectories(svg.toAbsolutePath().getParent());
            Files.writeString(svg, svg(panels, width, height), StandardCharsets.UTF_8);
            written.add(svg);
        }
        if (png != null) {
            BufferedImage image = new BufferedImage(2 * width, 2 * height, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = image.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.scale(2, 2);
            draw(g, panels);
            g.dispose();
            Files.createDirectories(png.toAbsolutePath().getParent());
            ImageIO.write(image, "png", png.toFile());
            written.add(png);
        }
        return written;
    }

    /** The panels as an SVG document: text stays text (in a sans-serif font), coordinates to a tenth of a pixel. */
    static String svg(Panel[] panels, int width, int height) throws IOException {
        Document document = GenericDOMImplementation.getDOMImplementation().createDocument(SVG_NS, "svg", null);
        SVGGeneratorContext context = SVGGeneratorContext.createDefault(document);
        context.setPrecision(1);
        context.setComment("Tollgate simulator");
        SVGGraphics2D g = new SVGGraphics2D(context, false);
        g.setSVGCanvasSize(new Dimension(width, height));
        draw(g, panels);
        StringWriter out = new StringWriter();
        g.stream(out, true);
        return out.toString();
    }

    private static void draw(Graphics2D g, Panel[] panels) {
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, panels.length * panels[0].width, panels[0].height);
        for (Panel panel : panels) {
            panel.chart.draw(g, new java.awt.geom.Rectangle2D.Double(panel.x, 0, panel.width, panel.height));
        }
    }

    private record Panel(JFreeChart chart, int x, int width, int height) {
    }
}
