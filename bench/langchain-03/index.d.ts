/** LangChain JS 0.3's text ReAct parser. */
export declare class ReActSingleInputOutputParser {
  constructor(fields: { toolNames: string[] });
  parse(
    text: string,
  ): Promise<
    | { tool: string; toolInput: string | Record<string, unknown>; log: string }
    | { returnValues: Record<string, unknown>; log: string }
  >;
}
