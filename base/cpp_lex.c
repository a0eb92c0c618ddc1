/* The preprocessor's tokens (base/cpp_impl.h): lines spliced, comments
 * made spaces, then identifiers, pp-numbers, literals and punctuators.
 * What it would have to guess at (digit separators, raw strings, an
 * unterminated comment or literal) stops the digest instead. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpp_impl.h"

static int ident_char(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '$';
}

int cpp_is(const ctok *t, const char *punct)
{
    return t->kind == CT_PUNCT && (size_t)t->len == strlen(punct) &&
           !memcmp(t->s, punct, (size_t)t->len);
}

int cpp_reserved(const char *s, int n)
{
    return n >= 2 && s[0] == '_' && (s[1] == '_' || isupper((unsigned char)s[1]));
}

/* Copies a literal opened by q at s[*i] into out; 0 if unterminated. */
static int literal(const char *s, size_t *i, char *out, size_t *k, char q)
{
    out[(*k)++] = s[(*i)++];
    while (s[*i] && s[*i] != q && s[*i] != '\n') {
        if (s[*i] == '\\' && s[*i + 1])
            out[(*k)++] = s[(*i)++];
        out[(*k)++] = s[(*i)++];
    }
    if (s[*i] != q)
        return 0;
    out[(*k)++] = s[(*i)++];
    return 1;
}

/* Translation phases 2 and 3: backslash-newlines out, each comment one
 * space, literals kept as they are. */
static char *clean(cpp *c, const char *src)
{
    size_t n = strlen(src);
    char *a = cpp_alloc(c, n + 1), *out = cpp_alloc(c, n + 1);
    if (!a || !out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (src[i] == '\\' && src[i + 1] == '\n') {
            ++i;
        } else if (src[i] == '\\' && src[i + 1] == '\r' && src[i + 2] == '\n') {
            i += 2;
        } else {
            a[k++] = src[i];
        }
    }
    a[k] = '\0';
    size_t i = 0;
    k = 0;
    while (a[i]) {
        char ch = a[i];
        if (ch == '/' && a[i + 1] == '/') {
            while (a[i] && a[i] != '\n')
                ++i;
            out[k++] = ' ';
        } else if (ch == '/' && a[i + 1] == '*') {
            const char *end = strstr(a + i + 2, "*/");
            if (!end)
                return cpp_bail(c, "an unterminated comment"), NULL;
            i = (size_t)(end - a) + 2;
            out[k++] = ' ';
        } else if (ch == '"' || ch == '\'') {
            char prev = i ? a[i - 1] : ' ';
            if (ch == '\'' && isdigit((unsigned char)prev))
                return cpp_bail(c, "a digit separator or u8 character"), NULL;
            if (ch == '"' && prev == 'R')
                return cpp_bail(c, "a raw string"), NULL;
            if (!literal(a, &i, out, &k, ch))
                return cpp_bail(c, "an unterminated literal"), NULL;
        } else {
            out[k++] = a[i++];
        }
    }
    out[k] = '\0';
    return out;
}

/* Longest punctuators first. */
static const char *const PUNCTS[] = {
    "%:%:", "<<=", ">>=", "...", "->*", "::", "->", "++", "--", "<<", ">>",
    "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=",
    "&=", "^=", "|=", "##", ".*", "<:", ":>", "<%", "%>", "%:",
};

static int punct_len(const char *s)
{
    for (size_t i = 0; i < sizeof PUNCTS / sizeof *PUNCTS; ++i) {
        size_t n = strlen(PUNCTS[i]);
        if (!strncmp(s, PUNCTS[i], n))
            return (int)n;
    }
    return ispunct((unsigned char)*s) ? 1 : 0;
}

/* A pp-number's length from s (C11 6.4.8: exponent signs included). */
static int number_len(const char *s)
{
    int n = 1;
    for (;;) {
        char ch = s[n];
        if ((ch == '+' || ch == '-') && strchr("eEpP", s[n - 1]))
            n++;
        else if (ident_char((unsigned char)ch) || ch == '.')
            n++;
        else
            return n;
    }
}

static int token_len(cpp *c, const char *s, int *kind)
{
    unsigned char ch = (unsigned char)*s;
    size_t n;
    if (isdigit(ch) || (ch == '.' && isdigit((unsigned char)s[1]))) {
        *kind = CT_NUM;
        return number_len(s);
    }
    if (ident_char(ch)) {
        for (n = 1; ident_char((unsigned char)s[n]); ++n)
            ;
        *kind = CT_IDENT;
        return (int)n;
    }
    if (ch == '"' || ch == '\'') { /* clean() saw each closed */
        for (n = 1; s[n] != (char)ch; ++n)
            n += s[n] == '\\';
        *kind = ch == '"' ? CT_STR : CT_CHAR;
        return (int)n + 1;
    }
    *kind = CT_PUNCT;
    int k = punct_len(s);
    if (!k)
        cpp_bail(c, "a byte 0x%02x outside any token", ch);
    return k;
}

ctok *cpp_lex(cpp *c, const char *src)
{
    const char *s = clean(c, src);
    ctok head = {0}, *cur = &head;
    int bol = 1, space = 0;
    while (s && *s) {
        if (*s == '\n') {
            bol = 1, space = 0, ++s;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            space = 1, ++s;
            continue;
        }
        ctok *t = cpp_alloc(c, sizeof *t);
        if (!t)
            return NULL;
        t->s = s;
        t->len = token_len(c, s, &t->kind);
        if (c->bailed)
            return NULL;
        t->bol = bol, t->space = space;
        bol = space = 0;
        s += t->len;
        cur = cur->next = t;
    }
    if (!s || !(cur->next = cpp_alloc(c, sizeof(ctok))))
        return NULL;
    cur->next->bol = 1;
    return head.next;
}
