/** A regular expression written `pattern` or `/pattern/flags`. */
export function compileRegex(source: string): RegExp {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(source);
  return m ? new RegExp(m[1]!, m[2]) : new RegExp(source);
}
