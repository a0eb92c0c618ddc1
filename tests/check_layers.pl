#!/usr/bin/perl
# The structure's rules, checked on the source tree (TAP, run by prove):
#  1. includes run downward: each folder includes only itself and the
#     folders below it (docs/ARCHITECTURE.md), never sideways;
#  2. no include cycles between files;
#  3. no source file over 500 lines, no function over 100;
#  4. no file outside a family's own files reads a family's fields: the
#     family's header (gen/F.h) is included only by F's files (gen/F*,
#     cli/F*), and the public problem's fields (rows, cols, ...) are read
#     only there;
#  5. helpers written once: the clock, dynamic loading, temporary files.
# Run from the repository root: perl tests/check_layers.pl
use strict;
use warnings;

my %rank = (include => 0, base => 1, gen => 2, search => 2, spec => 3,
            'runtime/driver' => 4, 'runtime/store' => 5,
            'runtime/measure' => 6, 'runtime/tune' => 7, 'runtime/plan' => 8, 'runtime/api' => 9,
            cli => 10);
my @files = sort grep { -f } map { glob "$_/*.[ch]" } sort keys %rank;
my (%inc, @bad_layer, @big, @long, @fields, @twice, @inner, @hooks);

sub folder { my ($p) = @_; $p =~ m{^(.+)/[^/]+$} ? $1 : '' }

# Layers with one header that is their interface (SQLite's pager.h beside
# its private pagerInt.h): from outside the layer, only that header is
# included; the layer's other headers are its own.
my %interface = map { $_ => "$_/" . (split m{/}, $_)[-1] . '.h' }
    qw(spec runtime/driver runtime/store runtime/measure runtime/tune
       runtime/plan runtime/api);

# The quoted include's path in the tree, or undef (a system header).
sub resolve {
    my ($from, $name) = @_;
    $name =~ s{^\.\./}{};
    return "include/$name" if -f "include/$name";
    return $name if $name =~ m{/} && -f $name;
    my $dir = folder($from);
    return "$dir/$name" if -f "$dir/$name";
    return undef;
}

# Families: at_family_NAME in the table; each family's files.
my @families;
open my $ft, '<', 'gen/family.c' or die "gen/family.c: $!";
while (<$ft>) { push @families, $1 if /^extern const at_family at_family_(\w+);/ }
close $ft;
# The family a spec file makes at run time (spec/spec_family.c) has its
# files too.
push @families, 'spec';
sub family_of {
    my ($f) = @_;
    for my $fam (@families) {
        return $fam if $f =~ m{^(gen|cli|spec)/\Q$fam\E[_.]};
    }
    return undef;
}

# The built-in families' fields (their tables: [X] = {"name", ...}): the
# public header names none of them in its code (1.0: a problem's fields
# are set by name), and generic code reads none as a member.
my @family_fields;
for my $src (glob 'gen/*_problem.c') {
    open my $s, '<', $src or die "$src: $!";
    while (<$s>) { push @family_fields, $1 if /^\s*\[\w+\] = \{"(\w+)"/ }
}
# Words too common to tell (n, op, ld, axis) left out.
@family_fields = grep { length > 3 && $_ ne 'axis' } @family_fields;
my $field_re = join '|', @family_fields;
my @public;
{
    open my $h, '<', 'include/autotune.h' or die $!;
    my $text = do { local $/; <$h> };
    $text =~ s{/\*.*?\*/|"(?:\\.|[^"\\])*"}{}gs;
    push @public, "include/autotune.h names the family field '$1'"
        while $text =~ /\b($field_re)\b/g;
    push @public, "no family fields found in gen/*_problem.c"
        unless @family_fields;
}

my %once = ('clock_gettime' => 'base/clock.c', 'dlopen' => 'base/dl.c',
            'mkstemp' => 'base/safefile.c', 'mkostemp' => 'base/safefile.c',
            'rename' => 'base/safefile.c');

for my $f (@files) {
    open my $fh, '<', $f or die "$f: $!";
    my @lines = <$fh>;
    close $fh;
    push @big, sprintf("%s: %d lines", $f, scalar @lines) if @lines > 500;
    my ($start, $name, $comment) = (0, '', 0);
    my $fam = family_of($f);
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        if ($l =~ /^#include "([^"]+)"/) {
            my $to = resolve($f, $1);
            if (!defined $to) {
                push @bad_layer, "$f: \"$1\" not found in the tree";
                next;
            }
            push @{$inc{$f}}, $to;
            my ($a, $b) = (folder($f), folder($to));
            push @bad_layer, "$f includes $to" if $a ne $b &&
                !(exists $rank{$b} && $rank{$b} < $rank{$a});
            push @inner, "$f includes $to (not $interface{$b})"
                if $a ne $b && exists $interface{$b} && $to ne $interface{$b};
            if ($to =~ m{^gen/(\w+)\.h$} && grep { $_ eq $1 } @families) {
                push @fields, "$f includes the family header $to"
                    unless defined $fam && $fam eq $1;
            }
        }
        $name = $1 if $l =~ /^\S.*?\b(\w+)\(/ && $l !~ /^[#\/ ]/;
        $start = $i if $l =~ /^\{\s*$/;
        if ($l =~ /^\}\s*$/ && $start) {
            my $n = $i - $start + 1;
            push @long, "$f: $name, $n lines" if $n > 100;
            $start = 0;
        }
        # The code of the line: comments and strings left out.
        my $code = $l;
        if ($comment) {
            next unless $code =~ s{^.*?\*/}{};
            $comment = 0;
        }
        $code =~ s{/\*.*?\*/|//.*|"(?:\\.|[^"\\])*"}{}g;
        $comment = 1 if $code =~ s{/\*.*$}{};
        if (!defined $fam && $f ne 'include/autotune.h' &&
            $code =~ /(?:\.|->)($field_re)\b/) {
            push @fields, sprintf("%s:%d: .%s", $f, $i + 1, $1);
        }
        # A hook is called or set, never tested for NULL, and a family's
        # program shape is read through family.c, outside gen/family*.
        if ($f !~ m{^gen/family}) {
            push @hooks, sprintf("%s:%d: ops.%s not called", $f, $i + 1, $1)
                while $code =~ /\bops\.(\w+)\b(?!\s*(?:\(|=[^=]))/g;
            push @hooks, sprintf("%s:%d: program_points read", $f, $i + 1)
                if $code =~ /(?:\.|->)program_points\b(?!\s*=[^=])/;
        }
        for my $fn (keys %once) {
            push @twice, sprintf("%s:%d: %s (belongs in %s)", $f, $i + 1,
                                 $fn, $once{$fn})
                if $code =~ /\b\Q$fn\E\s*\(/ && $f ne $once{$fn};
        }
    }
}

# The family entry (gen/family.h): each hook MUST (every family sets it)
# or MAY (gen/family_defaults.c gives its default), so no hook is one
# family's alone and generic code calls each as it is.
my @ops;
{
    open my $h, '<', 'gen/family.h' or die "gen/family.h: $!";
    my ($in, $mark, %kind, @order) = (0, '');
    while (<$h>) {
        $in = 1 if /typedef struct at_family_ops \{/;
        last if $in && /\} at_family_ops;/;
        next unless $in;
        $mark = $1 if m{/\* (MUST|MAY)\b};
        if (/\(\*(\w+)\)\(/) { $kind{$1} = $mark; push @order, $1; }
    }
    close $h;
    my $defaults = do { local $/; open my $d, '<', 'gen/family_defaults.c'
                        or die $!; <$d> };
    my %def = map { $_ => 1 } $defaults =~ /AT_DEFAULT\((\w+),/g;
    my %sets;
    for my $src (glob('gen/*.c'), glob('spec/*.c')) {
        my $text = do { local $/; open my $s, '<', $src or die $!; <$s> };
        my $who = $src =~ m{^spec/} ? 'spec' : $src;
        $sets{$who}{$_} = 1 for $text =~ /(?:\.|->)ops\.(\w+)\s*=[^=]/g;
    }
    my @defs = grep { %{$sets{$_}} } sort keys %sets;
    for my $hook (sort keys %kind) {
        if ($kind{$hook} eq 'MAY') {
            push @ops, "$hook is MAY but has no AT_DEFAULT" unless $def{$hook};
        } else {
            push @ops, "$hook is MUST but $_ does not set it"
                for grep { !$sets{$_}{$hook} } @defs;
            push @ops, "$hook is MUST and has a default too" if $def{$hook};
        }
    }
    push @ops, "no hooks found in gen/family.h" unless %kind;
    # docs/ARCHITECTURE.md's table of the entry says the same: each hook
    # once, in family.h's order, with its mark.
    open my $doc, '<', 'docs/ARCHITECTURE.md' or die $!;
    my ($sect, @rows) = (0);
    while (<$doc>) {
        if (/^## /) { $sect = /^## The family entry\s*$/ ? 1 : 0; next }
        push @rows, [$1, $2] if $sect && /^\|\s*`(\w+)`\s*\|\s*(MUST|MAY)\s*\|/;
    }
    close $doc;
    my $doc_order = join ' ', map { "$_->[0]:$_->[1]" } @rows;
    my $h_order = join ' ', map { "$_:$kind{$_}" } @order;
    push @ops, "docs/ARCHITECTURE.md's family table ($doc_order) is not "
               . "gen/family.h's ($h_order)" if $doc_order ne $h_order;
}

# Cycles: a depth-first walk of the include graph.
my (%state, @cycles);
sub visit {
    my ($f, @path) = @_;
    return if ($state{$f} // 0) == 2;
    if (($state{$f} // 0) == 1) {
        push @cycles, join(' -> ', @path, $f);
        return;
    }
    $state{$f} = 1;
    visit($_, @path, $f) for @{$inc{$f} // []};
    $state{$f} = 2;
}
visit($_) for @files;

my @checks = (
    ['includes run downward (include < base < gen, search < spec < runtime/driver < store < measure < tune < plan < api < cli)', \@bad_layer],
    ['a layer is entered through its one interface header', \@inner],
    ['no include cycles', \@cycles],
    ['no source file over 500 lines', \@big],
    ['no function over 100 lines', \@long],
    ['family fields read only in the family\'s files', \@fields],
    ['the public header names no family\'s field', \@public],
    ['hooks called, never tested; a family\'s traits read in gen/family* only', \@hooks],
    ['every hook required of every family or given a default (gen/family.h, family_defaults.c)', \@ops],
    ['clock, dynamic loading and temporary files written once', \@twice],
);
printf "1..%d\n", scalar @checks;
my $n = 0;
for my $c (@checks) {
    my ($what, $found) = @$c;
    ++$n;
    print @$found ? "not ok $n - $what\n" : "ok $n - $what\n";
    print "# $_\n" for @$found;
}
printf "# %d files in %d layers, %d families (%s)\n", scalar @files,
    scalar keys %rank, scalar @families, join(', ', @families);
