#!/usr/bin/env python3
"""Writes corpus.json: the fixed tokenizer reference corpus (>= 200 strings).

Hand-written strings cover multilingual text, emoji, code, whitespace runs, digits and special-token
look-alikes; a seeded generator adds mixtures of them. The output is committed; re-run only to extend
it (the ids are computed at test time by tests/tokenizer-ref/encode.mjs, never stored).
"""
import json
import random

HAND = [
    "", "a", " ", "hello", "Hello, World!", "The quick brown fox jumps over the lazy dog.",
    "It's a dog's life; they'll see, we're here, I've been, I'm done, he'd go.",
    "IT'S ALL CAPS, WE'RE SHOUTING, YOU'LL SEE, THEY'VE GONE, I'D SAY.",
    "don’t use curly apostrophes’s", "rock 'n' roll", "'s 't 're 've 'm 'll 'd",
    "iPhone McDonald's XMLHttpRequest getElementById camelCaseString snake_case_name kebab-case-name",
    "Die Grenzen meiner Sprache bedeuten die Grenzen meiner Welt. Straße, Maß, Übergrößenträger.",
    "Bonjour, le monde ! Ça va ? L'élève était très déçu… « guillemets »",
    "¿Dónde está la biblioteca? ¡Olé! El niño comió piñata.",
    "Привет, мир! Как дела? Съешь же ещё этих мягких французских булок.",
    "Γειά σου Κόσμε! Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
    "مرحبا بالعالم! كيف حالك اليوم؟ ١٢٣٤٥٦٧٨٩٠",
    "שלום עולם! מה שלומך?",
    "नमस्ते दुनिया! आप कैसे हैं? क्षत्रिय ज्ञान",
    "হ্যালো বিশ্ব! আপনি কেমন আছেন?",
    "வணக்கம் உலகம்! நீங்கள் எப்படி இருக்கிறீர்கள்?",
    "สวัสดีชาวโลก! คุณเป็นอย่างไรบ้าง",
    "你好，世界！今天天气很好。我们去公园散步吧。",
    "こんにちは、世界！お元気ですか？カタカナとひらがなと漢字。",
    "안녕하세요, 세상! 오늘 기분이 어때요?",
    "Xin chào thế giới! Tiếng Việt có dấu: ắ ằ ẳ ẵ ặ.",
    "İstanbul'da ılık bir gün; IĞDIR ıspanak ŞİŞLİ.",
    "გამარჯობა მსოფლიო! Բարեւ աշխարհ! ሰላም ልዑል!",
    "Ελληνικά και English mixed with русский и 中文 and العربية.",
    "Zürich – Genève — Lausanne … “quotes” ‘single’ „German“ ‹angle›",
    "e\u0301 n\u0303 a\u0308 o\u0302 combining marks: Z\u0351\u036b\u0343a\u0352l\u0351g\u0351o",
    "ﬁ ﬂ ﬀ ligatures, ℃ ℉ № ™ ® © ½ ¼ ¾ ‰ µ Å Ω",
    "Hangul jamo: \u1100\u1161\u11a8 vs 각",
    "Zero\u200bwidth\u200bspace and\u200dZWJ and\u200cZWNJ and soft\u00adhyphen",
    "🙂", "😀😃😄😁", "👍🏽👍🏿", "👨‍👩‍👧‍👦 family", "🏳️‍🌈 🏴‍☠️", "🇩🇪🇫🇷🇯🇵🇺🇸",
    "1️⃣ 2️⃣ #️⃣ *️⃣", "I ❤️ NY ☕ ✅ ❌ ⚡", "Hello, World! How are you today? 🌍",
    "🤖🦾🧠 AI 🚀🚀🚀 to the moon 🌕", "emoji🙂inside🙂words", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕄𝕒𝕥𝕙 𝓢𝓬𝓻𝓲𝓹𝓽",
    "0", "1", "12", "123", "1234", "12345", "123456789", "12345678901234567890",
    "3.14159265358979", "1,000,000.00", "1e-10 6.022e23 -42 +7", "2024-06-30T12:34:56.789Z",
    "Phone: +1 (555) 123-4567, ext. 89", "0x1F 0b1010 0o777 0xDEADBEEF", "v1.2.3-rc.4+build.5",
    "١٢٣ ٤٥٦ Arabic-Indic", "१२३ Devanagari digits", "１２３４５ fullwidth", "Ⅻ ⅳ ² ³ ¹⁰ ½ ⑦",
    "$100 €200 £300 ¥400 ₹500 ₿0.001", "50% 100 % 3/4 1:2", "99.9th percentile at p99.9 = 12.5ms",
    "    ", "\t", "\t\t\t", "\n", "\n\n", "\n\n\n\n", "\r\n", "\r\n\r\n", " \n ", "a  b", "a   b", "a    b",
    "trailing spaces   ", "   leading spaces", "  both  ", "tab\tseparated\tvalues",
    "line1\nline2\r\nline3\rline4", "indented\n    four\n        eight\n\ttab",
    "mixed \t \n \r\n   \t\t  end", "no\u00a0break\u00a0space", "ideographic\u3000space",
    "line\u2028separator\u2029para", "next\u0085line", "bom\ufeffinside", "en\u2002em\u2003thin\u2009",
    " " * 17, " " * 64, "\n" * 33, "\t" * 20 + "x", "a" + " " * 40 + "b",
    "def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n",
    "#include <iostream>\nint main() {\n\tstd::cout << \"Hello\" << std::endl;\n\treturn 0;\n}\n",
    "const f = (a, b) => a ?? b; // nullish\nlet x = [1, 2, 3].map(v => v ** 2);",
    "{\"model\": \"gpt-oss-120b\", \"max_tokens\": 1000, \"stream\": true, \"messages\": []}",
    "<html><body><div class=\"x\">Hi &amp; bye</div></body></html>",
    "SELECT id, name FROM users WHERE age >= 18 AND name LIKE '%son' ORDER BY id DESC;",
    "for f in *.txt; do echo \"$f\" | sed -e 's/a/b/g' >> out.log 2>&1; done",
    "^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+)@\\w+\\.[a-z]{2,}$",
    "| col1 | col2 |\n|------|------|\n| a    | b    |", "$$\\int_0^\\infty e^{-x^2} dx = \\frac{\\sqrt{\\pi}}{2}$$",
    "fn main() { let v: Vec<u8> = vec![0; 10]; println!(\"{:?}\", v); }",
    "https://example.com/path/to/page?query=1&lang=en#section", "user@example.org /usr/local/bin/../lib",
    "C:\\Windows\\System32\\drivers\\etc\\hosts", "a/b/c//d///e", "=== --- *** ___ ~~~ ```",
    "!!!???...,,,;;;:::", "((([[[{{{}}}]]])))", "<<>> <=> != == === !== && || ++ -- ->",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "=-" * 100, "ab" * 150, "x" * 300, "😀" * 40, "的" * 60,
    "SGVsbG8gV29ybGQhIFRoaXMgaXMgYmFzZTY0IGVuY29kZWQgdGV4dCB3aXRoIG5vIHNwYWNlcyBhdCBhbGwu",
    "d41d8cd98f00b204e9800998ecf8427e 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
    "<|endoftext|>", "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<|start_header_id|>user<|end_header_id|>",
    "<|im_start|>system\nYou are helpful.<|im_end|>", "<|endoftext|", "|endoftext|>", "< |endoftext| >",
    "<|ENDOFTEXT|>", "<||>", "<|>", "<|eot_id|><|eot_id|>", "text<|endoftext|>text", "<|reserved_special_token_250|>",
    "<|reserved_special_token_999|>", "<|start|>assistant<|channel|>analysis<|message|>think<|end|>",
    "<|return|> <|call|> <|constrain|>", "<|startoftext|>", "<|reserved_200000|>",
    "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>Hi<｜Assistant｜>", "<｜tool▁calls▁begin｜>",
    "<|begin▁of▁sentence|>", "<｜begin_of_sentence｜>", "<think>\nreasoning\n</think>", "[INST] hi [/INST]",
    "<s>hello</s>", "<unk> <pad> <mask> [CLS] [SEP]", "<|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>",
    "\u0001\u0002\u007f control \u001b[31mred\u001b[0m", "nul\u0000byte",
]

FRAGMENTS = [
    "the", " and", " token", "izer", " 42", "Ü", "ß", "東京", "🚀", "  ", "\n", "\t", "'s", "'LL", "://", "<|",
    "|>", "é", "й", "ك", "ह", "१", "ๆ", "…", "—", "0.5", "1234567", "camelCase", "__init__", "()", "{}", ";",
    "\r\n", "   \n", "<｜", "｜>", "▁", "Ġ", "Ċ", " 😀", "👩‍💻", "ﬁ", "\u00a0", "\u3000", "ALLCAPS", "MiXeD",
]


def main():
    rng = random.Random(20240630)
    out = list(HAND)
    while len(out) < 320:
        n = rng.randint(2, 14)
        out.append("".join(rng.choice(FRAGMENTS) for _ in range(n)))
    with open("corpus.json", "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(len(out), "strings")


if __name__ == "__main__":
    main()
