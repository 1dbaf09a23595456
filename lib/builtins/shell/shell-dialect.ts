// Its own module, free of the syntax tree's types: public declarations name the dialect, and web-tree-sitter's types
// must stay out of them (a consumer's skipLibCheck: false would check them, and they do not compile on their own).

/**
 * The grammar a command is analysed in: `bash` (GNU bash, the grammar tree-sitter-bash parses) or `posix` (a POSIX
 * sh such as dash or busybox ash, where every bash-only construct is unanalysable).
 */
export type ShellDialect = 'bash' | 'posix';
