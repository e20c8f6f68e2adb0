package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ReportsTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.dyper.runtime.Allocations;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Fields;
import org.dyper.runtime.Sites;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

/** The LOCKS, ALLOCATIONS and FIELDS sections of both reports, with exact attributes. */
class ReportsAgentsTest {
    static final int POST = 74_001;
    static final int OPEN = 74_002;
    static final int PLACE = 74_003;
    static final int HIT = 74_004;
    static final int ORDER = 74_101;
    static final int INT_ARRAY = 74_102;
    static final int HITS = 74_201;
    static final int TOTAL = 74_202;
    static final int NAME = 74_203;

    /** A lock class of this test's own. */
    static final class ReportLedger {
    }

    @BeforeEach
    void reset() {
        Dyper.reset();
        Sites.define(POST + "\tMETHOD\torg.x.Ledger\tpost\tlong\n"
                + OPEN + "\tMETHOD\torg.x.Ledger\topen\t\n"
                + PLACE + "\tMETHOD\torg.x.OrderBook\tplace\tint\n"
                + HIT + "\tMETHOD\torg.x.Stats\tquickHit\t\n"
                + ORDER + "\tCLASS\torg.x.Order\n"
                + INT_ARRAY + "\tTYPE\tint[]\n"
                + HITS + "\tFIELD\torg.x.Stats\thits\tlong\n"
                + TOTAL + "\tFIELD\torg.x.Stats\ttotal\tlong\n"
                + NAME + "\tFIELD\torg.x.Stats\tname\tjava.lang.String\n");
    }

    /**
     * Known waits and holds through the slab: a thread "report-holder" acquires the free ledger at OPEN (100 ns apart)
     * and holds it while this thread asks for it, acquires it at POST after 50 µs (contended), holds it 7 µs; then
     * the holder releases after 2 µs. The holder is known because it is in the holder table when this thread asks.
     */
    private void plantLocks() throws InterruptedException {
        assertEquals(20_000, Config.LOCK_CONTENDED_NS, "these numbers assume the default threshold");
        ReportLedger ledger = new ReportLedger();
        int type = LockClasses.index(ReportLedger.class);
        CountDownLatch acquired = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            ThreadData.current().lockAcquired(OPEN, ledger, type, 100, 1_000_000);
            acquired.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            ThreadData.current().lockReleased(ledger, 1_002_000);
        }, "report-holder");
        holder.start();
        acquired.await();
        ThreadData me = ThreadData.current();
        me.lockRequested(ledger);
        me.lockAcquired(POST, ledger, type, 50_000, 5_000_000);
        me.lockReleased(ledger, 5_007_000);
        release.countDown();
        holder.join();
    }

    private void plantAllocationsAndWrites() {
        for (int i = 0; i < 3; i++) {
            Allocations.object(PLACE, ORDER);
        }
        Allocations.array(PLACE, INT_ARRAY, 4);
        Allocations.array(PLACE, INT_ARRAY, 6);
        Object stats = new Object();
        synchronized (stats) {
            Fields.write(HIT, HITS, stats, 0, 1);
            Fields.write(HIT, HITS, stats, 1, 2);
        }
        Fields.write(HIT, HITS, stats, 2, 3);
        Fields.write(HIT, TOTAL, null, 5, -5);
        Fields.writeRef(HIT, NAME, stats, null, stats);
    }

    @Test
    void xmlSectionsHaveTheExactAttributes() throws Exception {
        plantLocks();
        plantAllocationsAndWrites();
        String me = Thread.currentThread().getName();
        Document doc = parse(Dyper.xmlReport());

        Element locks = section(doc, "LOCKS");
        assertEquals("20000", locks.getAttribute("CONTENDED_NS"));
        List<Element> lockSites = children(locks, "SITE");
        assertEquals(2, lockSites.size());
        assertEquals(attributes("ID", POST, "NAME", "org.x.Ledger.post(long)", "ACQUISITIONS", 1, "CONTENDED", 1,
                "WAIT_NS", 50_000, "MAX_WAIT_NS", 50_000, "HOLD_NS", 7_000, "MAX_HOLD_NS", 7_000, "WAITER", me,
                "HOLDER", "report-holder"), attributes(lockSites.get(0)));
        // nobody held the ledger when OPEN acquired it: the 100 ns between the hooks are no wait
        assertEquals(attributes("ID", OPEN, "NAME", "org.x.Ledger.open()", "ACQUISITIONS", 1, "CONTENDED", 0,
                "WAIT_NS", 0, "MAX_WAIT_NS", 0, "HOLD_NS", 2_000, "MAX_HOLD_NS", 2_000, "WAITER", "",
                "HOLDER", ""), attributes(lockSites.get(1)));
        List<Element> lockClasses = children(locks, "LOCK_CLASS");
        assertEquals(1, lockClasses.size());
        assertEquals(attributes("NAME", ReportLedger.class.getTypeName(), "ACQUISITIONS", 2, "CONTENDED", 1,
                "WAIT_NS", 50_000, "MAX_WAIT_NS", 50_000, "HOLD_NS", 9_000, "MAX_HOLD_NS", 7_000, "WAITER", me,
                "HOLDER", "report-holder"), attributes(lockClasses.get(0)));

        Element allocations = section(doc, "ALLOCATIONS");
        List<Element> allocationSites = children(allocations, "SITE");
        assertEquals(1, allocationSites.size());
        assertEquals(attributes("ID", PLACE, "NAME", "org.x.OrderBook.place(int)", "COUNT", 5, "ARRAYS", 2,
                "TOTAL_LENGTH", 10, "MAX_LENGTH", 6), attributes(allocationSites.get(0)));
        List<Element> types = children(allocations, "TYPE");
        assertEquals(2, types.size());
        assertEquals(attributes("ID", ORDER, "NAME", "org.x.Order", "COUNT", 3, "TOTAL_LENGTH", 0, "MAX_LENGTH", 0),
                attributes(types.get(0)));
        assertEquals(attributes("ID", INT_ARRAY, "NAME", "int[]", "COUNT", 2, "TOTAL_LENGTH", 10, "MAX_LENGTH", 6),
                attributes(types.get(1)));

        Element fields = section(doc, "FIELDS");
        List<Element> fieldElements = children(fields, "FIELD");
        assertEquals(List.of("org.x.Stats.hits", "org.x.Stats.name", "org.x.Stats.total"),
                fieldElements.stream().map(e -> e.getAttribute("NAME")).toList());
        Element hits = fieldElements.get(0);
        assertEquals(attributes("ID", HITS, "NAME", "org.x.Stats.hits", "WRITES", 3, "UNLOCKED_WRITES", 1,
                "NO_OWNER_WRITES", 0), attributes(hits));
        List<Element> writes = children(hits, "WRITE");
        assertEquals(List.of(
                attributes("OLD", 0, "NEW", 1, "THREAD", me, "LOCKED", "true"),
                attributes("OLD", 1, "NEW", 2, "THREAD", me, "LOCKED", "true"),
                attributes("OLD", 2, "NEW", 3, "THREAD", me, "LOCKED", "false")),
                writes.stream().map(ReportsAgentsTest::attributes).toList());
        assertEquals(attributes("OLD", 5, "NEW", -5, "THREAD", me, "LOCKED", "none"),
                attributes(children(fieldElements.get(2), "WRITE").get(0)));
        Element name = children(fieldElements.get(1), "WRITE").get(0);
        assertEquals("null", name.getAttribute("OLD"));
        assertTrue(name.getAttribute("NEW").matches("@[0-9a-f]+"), name.getAttribute("NEW"));
        List<Element> fieldSites = children(fields, "SITE");
        assertEquals(1, fieldSites.size());
        assertEquals(attributes("ID", HIT, "NAME", "org.x.Stats.quickHit()", "WRITES", 5, "UNLOCKED_WRITES", 2,
                "NO_OWNER_WRITES", 1), attributes(fieldSites.get(0)));
    }

    @Test
    void textReportHasReadableSections() throws Exception {
        plantLocks();
        plantAllocationsAndWrites();
        String text = Dyper.textReport();
        String me = Thread.currentThread().getName();
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("Lock contention (a wait over 20.0 µs counts as contended; the holder is a"
                + " best-effort name)"), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("  org\\.x\\.Ledger\\.post\\(long\\) +1 +1 +50\\.0 µs"
                + " +50\\.0 µs +7\\.00 µs +7\\.00 µs  " + me + " waited for report-holder")), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("  org\\.x\\.Ledger\\.open\\(\\) +1 +0 +0 ns +0 ns"
                + " +2\\.00 µs +2\\.00 µs  -")), text);
        assertTrue(lines.contains("Allocations (objects and arrays per allocating site and per type)"), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("  org\\.x\\.OrderBook\\.place\\(int\\) +5 +2 +10 +6")),
                text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("  int\\[\\] +2 +10 +6")), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("  org\\.x\\.Order +3 +- +-")), text);
        assertTrue(lines.contains("Field writes (unlocked: written without holding the owner object's monitor)"),
                text);
        assertTrue(lines.contains("  UNLOCKED WRITES: org.x.Stats.hits: 1 of 3 writes without holding the owner's"
                + " monitor"), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("    3 +2 +3 +" + me + "  NOT HELD")), text);
        assertTrue(lines.stream().anyMatch(l -> l.matches("    1 +5 +-5 +" + me + "  static field")), text);
    }

    @Test
    void sectionsAreEmptyButPresentWithoutData() throws Exception {
        Document doc = parse(Dyper.xmlReport());
        for (String s : List.of("LOCKS", "ALLOCATIONS", "FIELDS")) {
            assertEquals(0, children(section(doc, s), "*").size(), s);
        }
        assertTrue(Dyper.textReport().contains("No events were recorded."));
    }

    private static Element section(Document doc, String name) {
        return (Element) doc.getElementsByTagName(name).item(0);
    }

    /** Direct children of {@code parent} named {@code tag} ("*": all). */
    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && (tag.equals("*") || e.getTagName().equals(tag))) {
                out.add(e);
            }
        }
        return out;
    }

    private static Map<String, String> attributes(Object... namesAndValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            map.put((String) namesAndValues[i], String.valueOf(namesAndValues[i + 1]));
        }
        return map;
    }

    private static Map<String, String> attributes(Element e) {
        Map<String, String> map = new LinkedHashMap<>();
        NamedNodeMap all = e.getAttributes();
        for (int i = 0; i < all.getLength(); i++) {
            map.put(all.item(i).getNodeName(), all.item(i).getNodeValue());
        }
        return map;
    }
}
