package org.dyper.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The page's flame tree built on the server: pre-order, children by name, weights summed, the compared window's w0. */
class FlameTreeTest {
    private static Map<String, Long> paths(Object... kv) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
        }
        return m;
    }

    @Test
    void preOrderByNameWithTheWeightsOfThePathsThroughEachNode() {
        Map<String, Object> t = FlameTree.of(paths("e", 4, "a;d", 1, "a;b;c", 3, "a;b", 2), null);
        assertEquals(List.of("e", "a", "d", "b", "c"), t.get("names"), "ids in order of first use");
        assertEquals("{\"names\":[\"e\",\"a\",\"d\",\"b\",\"c\"],\"f\":[1,3,4,2,0],\"d\":[0,1,2,1,0],"
                + "\"w\":[6,5,3,1,4]}", Json.write(t));
    }

    @Test
    void aComparedWindowIsTheUnionWithASecondWeight() {
        Map<String, Object> t = FlameTree.of(paths("a;b;c", 3, "a;b", 2, "a;d", 1, "e", 4),
                paths("a;b;c", 1, "x", 5));
        assertEquals("{\"names\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"x\"],\"f\":[0,1,2,3,4,5],\"d\":[0,1,2,1,0,0],"
                + "\"w\":[6,5,3,1,4,0],\"w0\":[1,1,1,0,0,5]}", Json.write(t));
    }

    @Test
    void noPaths() {
        assertEquals("{\"names\":[],\"f\":[],\"d\":[],\"w\":[]}", Json.write(FlameTree.of(Map.of(), null)));
        assertEquals("{\"names\":[\"x\"],\"f\":[0],\"d\":[0],\"w\":[0],\"w0\":[5]}", Json.write(FlameTree.of(Map.of(),
                paths("x", 5))));
    }
}
