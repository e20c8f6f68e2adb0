package org.dyper.cli.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The exact figures of many JVMs as one {@code DYPER_REPORT} (docs/runtime-contract.md): every site of every section
 * by name, its counts and totals added up, minima and maxima over the JVMs, means and histograms made again from the
 * sums. Nothing is estimated: a merged count is the sum of the JVMs' counts. What cannot be added up (the last writes
 * of a field, the answers of questions, each JVM's own site ids) stays in each JVM's report.
 */
final class ExactMerge {
    ExactMerge() {
    }

    /** Attributes that add up over JVMs. */
    static final Set<String> SUMS = Set.of("COUNT", "TOTAL_NS", "SAMPLES", "SAMPLED_TOTAL_NS", "ESTIMATED_TOTAL_NS",
            "SUM", "NULLS", "NONNULLS", "ACQUISITIONS", "CONTENDED", "WAIT_NS", "HOLD_NS", "ARRAYS", "TOTAL_LENGTH",
            "WRITES", "UNLOCKED_WRITES", "NO_OWNER_WRITES", "TOTAL");
    /** Attributes that are the smallest over JVMs (among those with something counted). */
    static final Set<String> MINS = Set.of("MIN_NS", "MIN");
    /** Attributes that are the largest over JVMs. */
    static final Set<String> MAXES = Set.of("MAX_NS", "MAX", "MAX_WAIT_NS", "MAX_HOLD_NS", "MAX_LENGTH");
    /** Sections whose per-JVM details do not add up: left to each JVM's own report. */
    static final Set<String> NOT_MERGED = Set.of("MONITOR_REPORT", "ANSWERS");
    /** Children that are a JVM's own sequence (a field's last writes): not merged. */
    static final Set<String> OWN = Set.of("WRITE");

    /** One merged item (a SITE, TYPE, LOCK_CLASS or FIELD): its tag, name and attributes, its buckets. */
    private static final class Item {
        final String tag;
        final Map<String, String> attrs = new LinkedHashMap<>();
        final TreeMap<Long, Long> buckets = new TreeMap<>();
        boolean sameId = true;
        long maxWait = -1;

        Item(String tag) {
            this.tag = tag;
        }
    }

    /** The sections' own attributes and items, by section tag; where each section was first seen. */
    private final Map<String, Map<String, String>> sectionAttrs = new LinkedHashMap<>();
    private final Map<String, Map<String, Item>> sections = new LinkedHashMap<>();
    private final Map<String, long[]> firstSeen = new LinkedHashMap<>();

    /** The merged report of {@code reports} (each a {@code DYPER_REPORT}), stamped with {@code time}. */
    static String merge(List<Element> reports, long time) {
        ExactMerge m = new ExactMerge();
        for (int i = 0; i < reports.size(); i++) {
            m.add(reports.get(i), i);
        }
        return m.xml(time);
    }

    /** Whether no report was added. */
    boolean isEmpty() {
        return firstSeen.isEmpty() && sections.isEmpty();
    }

    /** Adds the {@code DYPER_REPORT} of JVM number {@code index} (the reports may come in any order). */
    void add(Element report, int index) {
        int position = 0;
        for (Element section : Xml.children(report)) {
            String tag = section.getTagName();
            if (NOT_MERGED.contains(tag)) {
                continue;
            }
            long[] seen = firstSeen.get(tag);
            if (seen == null || index < seen[0]) {
                firstSeen.put(tag, new long[] {index, position});
            }
            position++;
            boolean firstOfItsKind = !sectionAttrs.containsKey(tag);
            Map<String, String> attrs = sectionAttrs.computeIfAbsent(tag, k -> new LinkedHashMap<>());
            mergeSectionAttrs(attrs, section, firstOfItsKind);
            Map<String, Item> items = sections.computeIfAbsent(tag, k -> new LinkedHashMap<>());
            for (Element e : Xml.children(section)) {
                String key = e.getTagName() + "\u0000" + e.getAttribute("NAME");
                Item item = items.get(key);
                if (item == null) {
                    item = new Item(e.getTagName());
                    items.put(key, item);
                    first(item, e);
                } else {
                    add(item, e);
                }
            }
        }
        if (firstSeen.isEmpty()) {
            firstSeen.put("", new long[] {index, 0});  // a report with no section: still one that was added
        }
    }

    /** The merged report of what was added, stamped with {@code time}. */
    String xml(long time) {
        StringBuilder x = new StringBuilder(4096);
        x.append("<DYPER_REPORT VERSION='1' TIME='").append(time).append("'>");
        List<String> tags = new ArrayList<>(sections.keySet());
        // in the order of the lowest-numbered JVM that has them, whatever order the reports came in
        tags.sort(Comparator.comparingLong((String t) -> firstSeen.get(t)[0]).thenComparingLong(t ->
                firstSeen.get(t)[1]));
        for (String tag : tags) {
            x.append('<').append(tag);
            attrs(x, sectionAttrs.get(tag));
            x.append('>');
            List<Item> items = new ArrayList<>(sections.get(tag).values());
            items.sort(order(tag));
            for (Item item : items) {
                finish(item);
                x.append('<').append(item.tag);
                attrs(x, item.attrs);
                if (item.buckets.isEmpty()) {
                    x.append("/>");
                    continue;
                }
                x.append('>');
                for (Map.Entry<Long, Long> b : item.buckets.entrySet()) {
                    x.append("<BUCKET UPPER_NS='").append(b.getKey()).append("' COUNT='").append(b.getValue())
                            .append("'/>");
                }
                x.append("</").append(item.tag).append('>');
            }
            x.append("</").append(tag).append('>');
        }
        return x.append("</DYPER_REPORT>").toString();
    }

    /** A section's own attributes: TOTAL adds up, the others (EVERY, CONTENDED_NS) stay when every JVM agrees. */
    private static void mergeSectionAttrs(Map<String, String> attrs, Element section, boolean first) {
        var list = section.getAttributes();
        if (first) {
            for (int i = 0; i < list.getLength(); i++) {
                attrs.put(list.item(i).getNodeName(), list.item(i).getNodeValue());
            }
            return;
        }
        for (int i = 0; i < list.getLength(); i++) {
            String name = list.item(i).getNodeName();
            String value = list.item(i).getNodeValue();
            String had = attrs.get(name);
            if (SUMS.contains(name) && had != null) {
                attrs.put(name, Long.toString(parse(had) + parse(value)));
            } else if (had != null && !had.equals(value)) {
                attrs.remove(name);  // the JVMs differ (a threshold, a sampling period): no one value is true
            }
        }
    }

    private static void first(Item item, Element e) {
        var list = e.getAttributes();
        for (int i = 0; i < list.getLength(); i++) {
            item.attrs.put(list.item(i).getNodeName(), list.item(i).getNodeValue());
        }
        item.maxWait = e.hasAttribute("MAX_WAIT_NS") ? parse(e.getAttribute("MAX_WAIT_NS")) : -1;
        buckets(item, e);
    }

    private static void add(Item item, Element e) {
        boolean counted = !e.hasAttribute("COUNT") || parse(e.getAttribute("COUNT")) > 0;
        boolean hadCount = !item.attrs.containsKey("COUNT") || parse(item.attrs.get("COUNT")) > 0;
        if (!e.getAttribute("ID").equals(item.attrs.getOrDefault("ID", ""))) {
            item.sameId = false;
        }
        if (e.hasAttribute("MAX_WAIT_NS") && parse(e.getAttribute("MAX_WAIT_NS")) > item.maxWait) {
            // the longest wait's threads come with it
            item.maxWait = parse(e.getAttribute("MAX_WAIT_NS"));
            for (String who : List.of("WAITER", "HOLDER")) {
                if (e.hasAttribute(who)) {
                    item.attrs.put(who, e.getAttribute(who));
                }
            }
        }
        var list = e.getAttributes();
        for (int i = 0; i < list.getLength(); i++) {
            String name = list.item(i).getNodeName();
            String value = list.item(i).getNodeValue();
            String had = item.attrs.get(name);
            if (had == null) {
                item.attrs.put(name, value);
            } else if (SUMS.contains(name)) {
                item.attrs.put(name, Long.toString(parse(had) + parse(value)));
            } else if (MINS.contains(name)) {
                // a VALUES site with no record calls says MIN='0': it has no minimum
                long v = parse(value);
                long h = parse(had);
                item.attrs.put(name, Long.toString(!hadCount ? v : !counted ? h : Math.min(h, v)));
            } else if (MAXES.contains(name)) {
                long v = parse(value);
                long h = parse(had);
                item.attrs.put(name, Long.toString(!hadCount ? v : !counted ? h : Math.max(h, v)));
            } else if (name.equals("EXACT")) {
                item.attrs.put(name, Boolean.toString("true".equals(had) && "true".equals(value)));
            } else if (name.equals("ERROR_NS")) {
                double a = parse(had);
                double b = parse(value);
                item.attrs.put(name, Long.toString(Math.round(Math.sqrt(a * a + b * b))));  // independent estimates
            }
            // anything else (FIRST, WAITER, ...): the first JVM's
        }
        buckets(item, e);
    }

    private static void buckets(Item item, Element e) {
        for (Element b : Xml.children(e, "BUCKET")) {
            item.buckets.merge(parse(b.getAttribute("UPPER_NS")), parse(b.getAttribute("COUNT")), Long::sum);
        }
    }

    /** Figures made from the sums: the mean; an id only when every JVM used the same one. */
    private static void finish(Item item) {
        if (item.attrs.containsKey("MEAN_NS")) {
            long count = parse(item.attrs.get("COUNT"));
            long total = parse(item.attrs.get("TOTAL_NS"));
            item.attrs.put("MEAN_NS", Long.toString(count == 0 ? 0 : Math.round((double) total / count)));
        }
        if (!item.sameId) {
            item.attrs.remove("ID");
        }
        if (item.attrs.containsKey("MAX_WAIT_NS") && parse(item.attrs.getOrDefault("CONTENDED", "0")) == 0) {
            item.attrs.put("WAITER", "");
            item.attrs.put("HOLDER", "");
        }
    }

    /** The contract's order: what costs most first, ties by name. */
    private static Comparator<Item> order(String section) {
        List<String> keys = switch (section) {
            case "TIMING" -> List.of("TOTAL_NS");
            case "SAMPLED_TIMING" -> List.of("ESTIMATED_TOTAL_NS");
            case "VALUES" -> List.of("COUNT", "NULLS", "NONNULLS");
            case "LOCKS" -> List.of("WAIT_NS");
            case "ALLOCATIONS" -> List.of("COUNT");
            case "FIELDS" -> List.of("UNLOCKED_WRITES");
            default -> List.of("COUNT");
        };
        String second = switch (section) {
            case "LOCKS" -> "HOLD_NS";
            case "ALLOCATIONS" -> "TOTAL_LENGTH";
            case "FIELDS" -> "WRITES";
            default -> null;
        };
        Comparator<Item> byTag = Comparator.comparingInt(i -> tagRank(i.tag));
        Comparator<Item> byCost = Comparator.comparingLong((Item i) -> keys.stream()
                .mapToLong(k -> parse(i.attrs.getOrDefault(k, "0"))).sum()).reversed();
        if (second != null) {
            byCost = byCost.thenComparing(Comparator.comparingLong((Item i) -> parse(i.attrs.getOrDefault(second,
                    "0"))).reversed());
        }
        return byTag.thenComparing(byCost).thenComparing(i -> i.attrs.getOrDefault("NAME", ""));
    }

    /** Within a section: FIELDs before SITEs (FIELDS), SITEs before LOCK_CLASS and TYPE. */
    private static int tagRank(String tag) {
        return switch (tag) {
            case "FIELD" -> 0;
            case "SITE" -> 1;
            default -> 2;
        };
    }

    private static void attrs(StringBuilder x, Map<String, String> attrs) {
        for (Map.Entry<String, String> a : attrs.entrySet()) {
            x.append(' ').append(a.getKey()).append("='").append(Xml.esc(a.getValue())).append('\'');
        }
    }

    static long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
