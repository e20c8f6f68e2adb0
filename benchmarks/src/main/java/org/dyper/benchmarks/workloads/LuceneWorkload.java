package org.dyper.benchmarks.workloads;

import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * A workload on a program nobody here wrote: Lucene indexing synthetic documents into memory and running boolean
 * queries over them, round after round for the given seconds. Prints a checksum. Usage: {@code LuceneWorkload seconds}.
 */
public final class LuceneWorkload {
    private static final String[] WORDS = new String[500];

    private LuceneWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        Random random = new Random(42);
        for (int i = 0; i < WORDS.length; i++) {
            WORDS[i] = "w" + Integer.toString(i * 7919, 36);
        }
        long hits = 0;
        while (System.nanoTime() < end) {
            try (ByteBuffersDirectory dir = new ByteBuffersDirectory()) {
                try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(new StandardAnalyzer()))) {
                    for (int d = 0; d < 20_000; d++) {
                        StringBuilder text = new StringBuilder();
                        for (int k = 0; k < 40; k++) {
                            text.append(WORDS[(int) Math.abs(random.nextGaussian() * 60) % WORDS.length]).append(' ');
                        }
                        Document doc = new Document();
                        doc.add(new TextField("body", text.toString(), Field.Store.NO));
                        w.addDocument(doc);
                    }
                }
                try (DirectoryReader r = DirectoryReader.open(dir)) {
                    IndexSearcher s = new IndexSearcher(r);
                    for (int q = 0; q < 2_000; q++) {
                        BooleanQuery query = new BooleanQuery.Builder()
                                .add(new TermQuery(new Term("body", WORDS[q % 80])), BooleanClause.Occur.MUST)
                                .add(new TermQuery(new Term("body", WORDS[(q * 3) % 120])), BooleanClause.Occur.SHOULD)
                                .build();
                        hits += s.search(query, 10).totalHits.value;
                    }
                }
            }
        }
        System.out.println("lucene checksum " + hits);
    }
}
