package io.tollgate.simulator.chart;

import io.tollgate.simulator.report.Lane;
import io.tollgate.simulator.report.Result;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.XYTitleAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The chart of a run: one lane per client, group or key, sharing the time axis. In each lane every
 * request is a dot at the tokens its bucket held when it arrived — green if allowed, red if denied
 * (or, in shadow mode, if it would have been) — and the bucket's tokens as a blue line (under the
 * dots, or over them where thousands would bury it), with the burst (a full bucket) dashed.
 */
public final class TrafficChart {

    static final Color ALLOWED = new Color(0x2c, 0xa0, 0x2c);
    static final Color DENIED = new Color(0xd6, 0x27, 0x28);
    static final Color BAD_COST = new Color(0xff, 0x7f, 0x0e);
    static final Color TOKENS = new Color(0x1f, 0x4e, 0x9c);
    static final Color BURST = new Color(0x70, 0x70, 0x70);
    static final Color UNLIMITED = new Color(0xa0, 0xa0, 0xa0);
    static final String FONT = "SansSerif";

    private TrafficChart() {
    }

    /** How big the chart is drawn: full width, or half of it beside another. */
    public enum Size {
        FULL(900, 14, 12, 4.5),
        HALF(450, 12, 11, 3.5);

        final int width;
        final int titleFont;
        final int font;
        final double dot;

        Size(int width, int titleFont, int font, double dot) {
            this.width = width;
            this.titleFont = titleFont;
            this.font = font;
            this.dot = dot;
        }

        public int width() {
            return width;
        }

        /** @return the height that gives each of {@code lanes} lanes room */
        public int height(int lanes) {
            return (this == FULL ? 150 : 175) + lanes * (this == FULL ? 150 : 135);
        }
    }

    /** @return the chart of {@code result}, drawn at {@code size} */
    public static JFreeChart of(Result result, Size size) {
        return of(result, size, 0);
    }

    /** @return the most tokens the chart of {@code result} must show: the burst, or more if a bucket held more */
    public static long top(Result result) {
        long top = result.burst();
        for (Lane lane : result.lanes()) {
            for (long t : lane.tokens()) {
                top = Math.max(top, t);
            }
            for (long t : lane.lineTokens()) {
                top = Math.max(top, t);
            }
        }
        return Math.max(top, 1);
    }

    /**
     * @param minTop the token axis reaches at least this high (charts side by side share one scale)
     * @return the chart of {@code result}, drawn at {@code size}
     */
    public static JFreeChart of(Result result, Size size, long minTop) {
        TimeUnit unit = TimeUnit.forSpan(result.spanMicros());
        NumberAxis time = new NumberAxis("time since start (" + unit.label + ")");
        time.setRange(0, Math.max(unit.of(result.spanMicros()), 1e-6));
        style(time, size);
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
        plot.setGap(8);
        long top = Math.max(top(result), minTop);
        for (Lane lane : result.lanes()) {
            plot.add(lane(lane, unit, result.burst(), top, size), 1);
        }
        JFreeChart chart = new JFreeChart(null, new Font(FONT, Font.BOLD, size.titleFont), plot, false);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(6, 6, 6, 10));
        TextTitle title = new TextTitle(result.title(), new Font(FONT, Font.BOLD, size.titleFont));
        title.setHorizontalAlignment(HorizontalAlignment.LEFT);
        chart.addSubtitle(title);
        String text = size == Size.HALF ? result.subtitle().split(" · ")[0] : result.subtitle();
        TextTitle subtitle = new TextTitle(text, new Font(FONT, Font.PLAIN, size.font - 1));
        subtitle.setHorizontalAlignment(HorizontalAlignment.LEFT);
        subtitle.setPaint(new Color(0x44, 0x44, 0x44));
        subtitle.setMaximumLinesToDisplay(3);
        chart.addSubtitle(subtitle);
        plot.setFixedLegendItems(legend(result, size));
        LegendTitle legend = new LegendTitle(plot);
        legend.setPosition(RectangleEdge.BOTTOM);
        legend.setItemFont(new Font(FONT, Font.PLAIN, size.font));
        legend.setFrame(BlockBorder.NONE);
        legend.setBackgroundPaint(Color.WHITE);
        chart.addLegend(legend);
        return chart;
    }

    private static XYPlot lane(Lane lane, TimeUnit unit, long burst, long top, Size size) {
        XYSeries line = new XYSeries("tokens", false, true);
        for (int i = 0; i < lane.lineTimes().length; i++) {
            line.add(unit.of(lane.lineTimes()[i]), lane.lineTokens()[i], false);
        }
        XYSeries allowed = new XYSeries("allowed", false, true);
        XYSeries denied = new XYSeries("denied", false, true);
        XYSeries badCost = new XYSeries("bad cost", false, true);
        XYSeries unlimited = new XYSeries("no rule", false, true);
        for (int i = 0; i < lane.times().length; i++) {
            double x = unit.of(lane.times()[i]);
            double y = Math.max(0, lane.tokens()[i]);
            byte outcome = lane.outcomes()[i];
            XYSeries series = outcome == Lane.LIMITED ? denied : outcome == Lane.BAD_COST ? badCost
                    : lane.tokens()[i] < 0 ? unlimited : allowed; // allowed without the charted rule's bucket
            series.add(x, y, false);
        }
        NumberAxis tokens = new NumberAxis("tokens");
        tokens.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        double pad = Math.max(0.5, top * 0.07);
        tokens.setRange(-pad, top + Math.max(1, top * 0.3)); // room above a full bucket for the lane's name
        style(tokens, size);
        XYLineAndShapeRenderer lineRenderer = new XYLineAndShapeRenderer(true, false);
        lineRenderer.setDrawSeriesLineAsPath(true);
        boolean dense = lane.times().length > 200;
        lineRenderer.setSeriesPaint(0, dense ? new Color(TOKENS.getRed(), TOKENS.getGreen(), TOKENS.getBlue(), 150) : TOKENS);
        lineRenderer.setSeriesStroke(0, new BasicStroke(dense ? 0.8f : 1.6f));
        XYLineAndShapeRenderer dots = new XYLineAndShapeRenderer(false, true);
        dots.setDrawOutlines(false);
        Shape dot = new Ellipse2D.Double(-size.dot / 2, -size.dot / 2, size.dot, size.dot);
        Color[] colors = {translucent(ALLOWED, lane.times().length), translucent(DENIED, lane.times().length), BAD_COST, UNLIMITED};
        for (int s = 0; s < colors.length; s++) {
            dots.setSeriesShape(s, dot);
            dots.setSeriesPaint(s, colors[s]);
        }
        XYSeriesCollection points = new XYSeriesCollection();
        points.addSeries(allowed);
        points.addSeries(denied);
        points.addSeries(badCost);
        points.addSeries(unlimited);
        XYPlot plot = new XYPlot(new XYSeriesCollection(line), null, tokens, lineRenderer);
        plot.setDataset(1, points);
        plot.setRenderer(1, dots);
        // the line under the dots; where thousands of dots would bury it, over them
        plot.setDatasetRenderingOrder(lane.times().length > 2_000 ? DatasetRenderingOrder.REVERSE : DatasetRenderingOrder.FORWARD);
        plot.setBackgroundPaint(new Color(0xfa, 0xfa, 0xfa));
        plot.setDomainGridlinePaint(new Color(0xdd, 0xdd, 0xdd));
        plot.setRangeGridlinePaint(new Color(0xdd, 0xdd, 0xdd));
        plot.setOutlinePaint(new Color(0xbb, 0xbb, 0xbb));
        if (burst > 0) {
            ValueMarker full = new ValueMarker(burst, BURST, new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f,
                    new float[] {4f, 3f}, 0f));
            full.setLabel("burst " + burst);
            full.setLabelFont(new Font(FONT, Font.PLAIN, size.font - 1));
            full.setLabelPaint(BURST);
            full.setLabelAnchor(RectangleAnchor.BOTTOM_RIGHT);
            full.setLabelTextAnchor(TextAnchor.TOP_RIGHT);
            full.setLabelOffset(new RectangleInsets(3, 3, 3, 4));
            full.setLabelBackgroundColor(new Color(255, 255, 255, 200));
            plot.addRangeMarker(full);
        }
        TextTitle name = new TextTitle(lane.name(), new Font(FONT, Font.BOLD, size.font));
        name.setBackgroundPaint(new Color(255, 255, 255, 215));
        name.setPadding(new RectangleInsets(1, 4, 1, 4));
        plot.addAnnotation(new XYTitleAnnotation(0.005, 0.99, name, RectangleAnchor.TOP_LEFT));
        return plot;
    }

    /** Dense lanes get lighter dots, so where they pile up still shows. */
    private static Color translucent(Color color, int points) {
        int alpha = points > 20_000 ? 90 : points > 3_000 ? 150 : 220;
        return new Color(color.getRed(), color.getGreen(), color.getBlue(), alpha);
    }

    private static LegendItemCollection legend(Result result, Size size) {
        LegendItemCollection items = new LegendItemCollection();
        Shape dot = new Ellipse2D.Double(-4, -4, 8, 8);
        items.add(item("allowed", dot, ALLOWED));
        items.add(item(result.shadow() ? "denied (shadow: would be)" : "denied (429)", dot, DENIED));
        if (result.total().badCost() > 0) {
            items.add(item("bad cost (400)", dot, BAD_COST));
        }
        boolean unlimited = result.lanes().stream().anyMatch(lane -> {
            for (int i = 0; i < lane.tokens().length; i++) {
                if (lane.tokens()[i] < 0 && lane.outcomes()[i] == Lane.ALLOWED) {
                    return true;
                }
            }
            return false;
        });
        if (unlimited) {
            items.add(item("charted rule not applied", dot, UNLIMITED));
        }
        LegendItem line = new LegendItem("tokens in the bucket", null, null, null, new Line2D.Double(-9, 0, 9, 0),
                new BasicStroke(2f), TOKENS);
        items.add(line);
        LegendItem full = new LegendItem("burst (full bucket)", null, null, null, new Line2D.Double(-9, 0, 9, 0),
                new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {4f, 3f}, 0f), BURST);
        items.add(full);
        return items;
    }

    private static LegendItem item(String label, Shape shape, Color color) {
        return new LegendItem(label, null, null, null, shape, color);
    }

    private static void style(NumberAxis axis, Size size) {
        axis.setLabelFont(new Font(FONT, Font.PLAIN, size.font));
        axis.setTickLabelFont(new Font(FONT, Font.PLAIN, size.font - 1));
        axis.setLabelPaint(new Color(0x33, 0x33, 0x33));
        axis.setTickLabelPaint(new Color(0x33, 0x33, 0x33));
    }

    /** The unit of the time axis: seconds for minutes of traffic, minutes for hours, hours beyond. */
    enum TimeUnit {
        SECONDS("s", 1e6), MINUTES("min", 60e6), HOURS("h", 3600e6);

        final String label;
        final double micros;

        TimeUnit(String label, double micros) {
            this.label = label;
            this.micros = micros;
        }

        static TimeUnit forSpan(long span) {
            return span <= 600e6 ? SECONDS : span <= 3 * 3600e6 ? MINUTES : HOURS;
        }

        double of(long t) {
            return t / micros;
        }
    }

    static Rectangle2D area(int width, int height) {
        return new Rectangle2D.Double(0, 0, width, height);
    }

    /** @return the lanes of {@code results} with the most requests, for sizing a figure of several */
    static int lanes(List<Result> results) {
        return results.stream().mapToInt(r -> r.lanes().size()).max().orElse(1);
    }
}
