package org.dyper.patch.aspectj;

import org.dyper.patch.bytecode.BytecodePlan;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.dyper.patch.model.Problem;

/**
 * What the generator produced: AspectJ sources by fully qualified name (the aspects, and the generation's site-table
 * class {@code DyperSites}, all in one package of their own), the {@code aop.xml} for load-time
 * weaving, the site table (TAB-separated, the format of {@code Sites.define}), the classes that will be woven,
 * warnings (a FOR that matched nothing, a patch skipped at some methods), and the options ajc needs to weave them
 * ({@code -Xjoinpoints:synchronization,arrayconstruction} when the advice uses those join points), and the
 * bytecode pass's plan: which calls of generated wrapper methods to insert into which classes before weaving, and
 * for each aspect the classes its advice runs in ({@code advised}: a weave can give ajc a batch of classes with only the
 * aspects that advise them), and which patches each advice in the aspect sources stands for ({@code adviceIndex}).
 */
public record GeneratedCode(Map<String, String> aspects, String aopXml, String siteTable, Set<String> wovenClasses,
                            int siteCount, int adviceCount, List<Problem> warnings, List<String> weaverOptions,
                            BytecodePlan bytecode, Map<String, Set<String>> advised, AdviceIndex adviceIndex) {
    /** Without bytecode patches. */
    public GeneratedCode(Map<String, String> aspects, String aopXml, String siteTable, Set<String> wovenClasses,
                         int siteCount, int adviceCount, List<Problem> warnings, List<String> weaverOptions) {
        this(aspects, aopXml, siteTable, wovenClasses, siteCount, adviceCount, warnings, weaverOptions,
                BytecodePlan.EMPTY, Map.of(), AdviceIndex.EMPTY);
    }

    public GeneratedCode {
        advised = Collections.unmodifiableMap(new LinkedHashMap<>(advised == null ? Map.of() : advised));
        bytecode = bytecode == null ? BytecodePlan.EMPTY : bytecode;
        adviceIndex = adviceIndex == null ? AdviceIndex.EMPTY : adviceIndex;
        weaverOptions = List.copyOf(weaverOptions);
        aspects = Collections.unmodifiableMap(new LinkedHashMap<>(aspects));
        wovenClasses = Collections.unmodifiableSet(new TreeSet<>(wovenClasses));
        warnings = List.copyOf(warnings);
    }

    /** The same code with other warnings. */
    public GeneratedCode withWarnings(List<Problem> otherWarnings) {
        return new GeneratedCode(aspects, aopXml, siteTable, wovenClasses, siteCount, adviceCount, otherWarnings,
                weaverOptions, bytecode, advised, adviceIndex);
    }

    /** The package the generated classes are in (each generation has its own). */
    public String packageName() {
        String any = aspects.keySet().iterator().next();
        return any.substring(0, any.lastIndexOf('.'));
    }
}
