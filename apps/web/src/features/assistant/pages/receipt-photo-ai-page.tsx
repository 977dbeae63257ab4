import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function ReceiptPhotoAiPage() {
  return (
    <ScaffoldScreen
      title="Receipt Photo AI"
      summary="Upload or photograph a receipt and turn it into a request."
      capabilities={[
        "Offline OCR extracts merchant, date, total, tax and currency",
        "Review the fields, then create the request with the receipt attached",
      ]}
    />
  );
}
