// Java boilerpipe 1.2.0 on the speed sample, in a warm JVM: each extractor's getText(String) over
// the 300 pages, best of three timed passes after three warm-up passes of every extractor.
//
//   java -cp /usr/share/java/boilerpipe.jar:/usr/share/java/nekohtml.jar:/usr/share/java/xercesImpl.jar \
//        eval/speed/JavaBoilerpipeSpeed.java SPEED_SAMPLE.txt PAGES_DIR SHARED_EVAL_DIR
//
// Pages are decoded before timing as the oracle decodes them (the html_encoding of the sample line,
// Java's charset names, malformed bytes replaced); MB/s counts the pages' bytes.
import de.l3s.boilerpipe.extractors.*;
import java.nio.charset.*;
import java.nio.file.*;
import java.util.*;

public class JavaBoilerpipeSpeed {
    public static void main(String[] args) throws Exception {
        List<String> pages = new ArrayList<>();
        long bytes = 0;
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            if (line.startsWith("#") || line.isBlank()) continue;
            String[] f = line.split("\t", -1);
            byte[] raw = Files.readAllBytes(Paths.get(args[1], f[0], "html", f[1] + ".html"));
            bytes += raw.length;
            Charset cs = StandardCharsets.UTF_8;
            try {
                if (f.length > 3 && !f[3].isEmpty()) cs = Charset.forName(f[3]);
            } catch (IllegalArgumentException e) {
                // unknown name: UTF-8, as the oracle falls back
            }
            pages.add(new String(raw, cs));
        }
        String[] names = {"article", "default", "largest_content", "canola", "keep_everything",
            "num_words_rules", "article_sentences"};
        ExtractorBase[] ex = {ArticleExtractor.INSTANCE, DefaultExtractor.INSTANCE,
            LargestContentExtractor.INSTANCE, CanolaExtractor.INSTANCE, KeepEverythingExtractor.INSTANCE,
            NumWordsRulesExtractor.INSTANCE, ArticleSentencesExtractor.INSTANCE};
        long sink = 0;
        for (int warm = 0; warm < 3; warm++) {
            for (ExtractorBase e : ex) sink += pass(e, pages);
        }
        for (int i = 0; i < ex.length; i++) {
            double best = Double.MAX_VALUE;
            for (int run = 0; run < 3; run++) {
                long t = System.nanoTime();
                sink += pass(ex[i], pages);
                best = Math.min(best, (System.nanoTime() - t) / 1e9);
            }
            System.out.printf(Locale.ROOT, "%-34s %8.1f pages/s %7.1f MB/s%n",
                "Java boilerpipe 1.2.0, " + names[i], pages.size() / best, bytes / 1e6 / best);
        }
        if (sink == 42) System.out.println();
    }

    static long pass(ExtractorBase e, List<String> pages) {
        long chars = 0;
        for (String html : pages) {
            try {
                chars += e.getText(html).length();
            } catch (Exception ignored) {
                // a page the extractor cannot process counts as processed
            }
        }
        return chars;
    }
}
